// The parts of the File System Access and Web Locks APIs the browser backends use, typed here so the
// package's TypeScript setup (Node's types, no DOM library) stays as it is.

/** `FileSystemSyncAccessHandle`: positional, synchronous I/O, in dedicated workers only. */
export interface SyncAccessHandle {
  read(buffer: Uint8Array, options: { at: number }): number;
  write(buffer: Uint8Array, options: { at: number }): number;
  getSize(): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

/** `FileSystemFileHandle`, as far as used. */
export interface OpfsFileHandle {
  readonly kind: "file";
  createSyncAccessHandle(options?: {
    mode: "readwrite" | "read-only" | "readwrite-unsafe";
  }): Promise<SyncAccessHandle>;
}

/** `FileSystemDirectoryHandle`, as far as used. */
export interface OpfsDirectoryHandle {
  readonly kind: "directory";
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<OpfsDirectoryHandle>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<OpfsFileHandle>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
}

/** The `navigator` members used: `storage.getDirectory()` (OPFS) and `locks` (Web Locks). */
export interface BrowserNavigator {
  readonly storage: { getDirectory(): Promise<OpfsDirectoryHandle> };
  readonly locks: {
    request<T>(
      name: string,
      options: { mode?: "shared" | "exclusive"; ifAvailable?: boolean; signal?: AbortSignal },
      callback: (lock: unknown | null) => Promise<T> | T,
    ): Promise<T>;
  };
}

/** `globalThis.navigator` where a browser has one. */
export function browserNavigator(): BrowserNavigator | undefined {
  return (globalThis as { navigator?: BrowserNavigator }).navigator;
}
