import * as fs from "node:fs";
import { RandomAccessFile } from "@rafkit/raf";
import { getBackend, systemCallError } from "@rafkit/syscall-state";

/** Appends are gathered in the writer's buffer and reach the OS in large writes. */
const WRITE_BUFFER = 64 * 1024;

/**
 * All file access of the store goes through this module: appends, positional reads, flush, fsync, truncate,
 * whole-file reads, atomic replacement and directory fsync, on `@rafkit/raf`'s `RandomAccessFile`.
 *
 * A writable data file has two handles: an unbuffered reader for positional reads (a read's seek never
 * disturbs the writer's append buffer) and a buffered writer whose pointer stays at the end. A read that
 * reaches into appends still in the writer's buffer flushes them first, so reads always see every append.
 */
export class DataFile {
  readonly path: string;
  readonly #reader: RandomAccessFile;
  readonly #writer: RandomAccessFile | null;
  #end: number;
  /** Start of the appends not yet handed to the OS; `#end` when there are none. */
  #unflushed: number;
  #closed = false;

  private constructor(path: string, writable: boolean) {
    this.path = path;
    this.#writer = writable ? new RandomAccessFile(path, "rw", { bufferSize: WRITE_BUFFER }) : null;
    try {
      this.#reader = new RandomAccessFile(path, "r", { bufferSize: 0 });
    } catch (error) {
      this.#writer?.close();
      throw error;
    }
    this.#end = this.#reader.length();
    this.#unflushed = this.#end;
    this.#writer?.seek(this.#end);
  }

  /** Opens `path` for reading ("r") or for appending and reading ("rw", created when missing). */
  static open(path: string, mode: "r" | "rw"): DataFile {
    return new DataFile(path, mode === "rw");
  }

  /** True when the file was opened "rw". */
  get writable(): boolean {
    return this.#writer !== null;
  }

  /** The file's length, counting appends not yet flushed. */
  get size(): number {
    return this.#end;
  }

  /** Appends `bytes` and returns the position they start at. */
  append(bytes: Uint8Array): number {
    const pos = this.#end;
    this.#writable().write(bytes);
    this.#end += bytes.length;
    return pos;
  }

  /** Reads exactly `length` bytes at `position`; throws raf's `EOFError` when the file ends first. */
  readAt(position: number, buffer: Uint8Array, offset: number, length: number): void {
    if (position + length > this.#unflushed) this.flush();
    this.#reader.seek(position);
    this.#reader.readFully(buffer, offset, length);
  }

  /** Reads up to `length` bytes at `position` and returns how many it read (fewer only at EOF). */
  read(position: number, buffer: Uint8Array, offset: number, length: number): number {
    if (position + length > this.#unflushed) this.flush();
    this.#reader.seek(position);
    let done = 0;
    while (done < length) {
      const n = this.#reader.read(buffer, offset + done, length - done);
      if (n <= 0) break;
      done += n;
    }
    return done;
  }

  /** Hands buffered appends to the OS. */
  flush(): void {
    if (this.#unflushed === this.#end || this.#writer === null) return;
    this.#writer.flush();
    this.#unflushed = this.#end;
  }

  /** Flushes, then fsyncs (data and metadata). */
  sync(): void {
    if (this.#writer === null) return;
    this.flush();
    this.#writer.sync();
  }

  /**
   * Flushes, then fdatasyncs: enough for appends, since it also flushes the size change needed to read them back;
   * it skips timestamps, and costs about half an fsync on ext4.
   */
  datasync(): void {
    if (this.#writer === null) return;
    this.flush();
    this.#writer.datasync();
  }

  /** {@link DataFile.datasync} on a worker thread, so the event loop keeps running meanwhile. */
  async datasyncAsync(): Promise<void> {
    const writer = this.#writable();
    this.flush();
    const r = await getBackend().datasyncAsync(writer.fd);
    if (r < 0) throw systemCallError(r, "fdatasync", this.path);
  }

  /** Cuts the file to `length` bytes. */
  truncate(length: number): void {
    const writer = this.#writable();
    this.flush();
    writer.setLength(length);
    writer.seek(length);
    this.#end = this.#unflushed = length;
  }

  /** Flushes and closes both handles. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#writer?.close();
    } finally {
      this.#reader.close();
    }
  }

  #writable(): RandomAccessFile {
    if (this.#writer === null) throw new TypeError(`${this.path} is open read-only`);
    return this.#writer;
  }
}

/** Reads a whole (small) file. */
export function readWholeFile(path: string): Uint8Array {
  const file = new RandomAccessFile(path, "r", { bufferSize: 0 });
  try {
    const out = new Uint8Array(file.length());
    file.readFully(out);
    return out;
  } finally {
    file.close();
  }
}

/** Replaces `path` atomically with `bytes`: write a temp file, fsync, rename, fsync the directory. */
export function writeFileAtomic(dir: string, path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const file = new RandomAccessFile(tmp, "rw", { bufferSize: 0 });
  try {
    file.setLength(0);
    file.write(bytes);
    file.sync();
  } finally {
    file.close();
  }
  fs.renameSync(tmp, path);
  syncDirectory(dir);
}

/** fsyncs a directory so that creations, renames and unlinks in it survive a power loss. */
export function syncDirectory(dir: string): void {
  const backend = getBackend();
  const fd = backend.open(dir, "r");
  if (fd < 0) return; // Windows cannot open a directory; its renames are durable by other means.
  try {
    const r = backend.sync(fd);
    // EINVAL: a filesystem that cannot fsync directories; nothing more can be done there.
    if (r < 0 && systemCallError(r, "fsync", dir).code !== "EINVAL")
      throw systemCallError(r, "fsync", dir);
  } finally {
    backend.close(fd);
  }
}
