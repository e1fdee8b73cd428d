import { EOFError, type RandomAccessFile } from "@rafkit/raf";
import {
  type Backend,
  getBackend,
  syncDirectory as syncDirectoryEntries,
  systemCallError,
} from "@rafkit/syscall-state";
import { openNoFollow } from "./no-follow";
import { decodeSyncPoint, encodeSyncPointInto, SYNC_POINT_SIZE } from "./record";

/** Appends are gathered here and reach the OS in one positional write of up to this many bytes. */
const APPEND_BUFFER = 64 * 1024;

/**
 * Zeros are written ahead of the appends in chunks of this size (see {@link DataFile.preallocate}), once fewer than
 * half of it are left. The size was chosen by measurement (BENCHMARKS.md, "Code constants").
 */
export const PREALLOCATE_CHUNK = 1024 * 1024;
let zeros: Buffer | null = null;

/**
 * A data file's reads and writes: appends, positional reads, flush, fsync and truncate, on `@rafkit/raf`'s
 * `RandomAccessFile`. The store opens it, and does every other file operation, through `store-dir.ts`.
 *
 * One unbuffered handle per data file (`bufferSize: 0`): a `get` is exactly one `readFullyAt` (one `pread`), and
 * a read never evicts or flushes anything. Appends are encoded by the caller straight into this file's append
 * buffer ({@link DataFile.reserve} / {@link DataFile.commit}: no per-record allocation), which goes to the OS in
 * one `writeAt` (one `pwrite`) when it fills, on {@link DataFile.flush} and before any fsync. A raf window would
 * do the buffering too, but it serves reads and writes with one range: a read elsewhere in the file would flush
 * the appends and refill the window there with a 64 KiB `pread`.
 */
export class DataFile {
  readonly path: string;
  readonly #file: RandomAccessFile;
  readonly #backend: Backend;
  readonly #writable: boolean;
  /** The file's length, counting appends still in {@link DataFile.buffer}. */
  #end: number;
  /** File position of `buffer[0]`: everything before it has been handed to the OS. */
  #flushed: number;
  /** The file's length on disk as far as this handle knows: {@link DataFile.size} plus the zeros written ahead. */
  #allocated: number;
  #buffer: Buffer;
  #pending = 0;
  #closed = false;
  /** The end of what an fsync of this handle has made durable (0 on open: what was there may not be). */
  #synced = 0;
  /** The `syncedEnd` of the last sync point appended (see {@link DataFile.appendSyncPoint}), and where it ends. */
  #attested = 0;
  #afterSyncPoint = -1;

  private constructor(path: string, writable: boolean, backend: Backend) {
    this.path = path;
    this.#writable = writable;
    this.#backend = backend;
    this.#file = openNoFollow(path, writable ? "rw" : "r", backend);
    this.#end = this.#flushed = this.#allocated = this.#file.length();
    this.#buffer = writable ? Buffer.allocUnsafe(APPEND_BUFFER) : Buffer.alloc(0);
    if (writable && this.#end >= SYNC_POINT_SIZE) this.#noteSealed();
  }

  /** A file that ends in a sync point attesting all before it (a sealed one) needs no other until appended to. */
  #noteSealed(): void {
    const tail = new Uint8Array(SYNC_POINT_SIZE);
    this.#file.readFullyAt(this.#end - SYNC_POINT_SIZE, tail);
    if (decodeSyncPoint(tail, 0) === this.#end - SYNC_POINT_SIZE) {
      this.#attested = this.#end - SYNC_POINT_SIZE;
      this.#afterSyncPoint = this.#end;
    }
  }

  /**
   * Opens `path` for reading ("r") or for appending and reading ("rw", created when missing), through `backend`
   * (default: syscall-state's automatic choice; a test passes a crash recorder's).
   */
  static open(path: string, mode: "r" | "rw", backend: Backend = getBackend()): DataFile {
    return new DataFile(path, mode === "rw", backend);
  }

  /** True when the file was opened "rw". */
  get writable(): boolean {
    return this.#writable;
  }

  /**
   * Where the content ends: the file's length on open, counting appends not yet flushed, and not counting the
   * zeros written ahead of them ({@link DataFile.preallocate}) or a zero tail cut by {@link DataFile.setContentEnd}.
   */
  get size(): number {
    return this.#end;
  }

  /**
   * Declares that the content ends at `end`, before the file's length on open (a scan found only zeros after it:
   * the zeros written ahead of its appends, see {@link DataFile.preallocate}). Nothing is written: a read-only open
   * must not change the file (its writer may be running); {@link DataFile.seal} cuts the zeros of a writable one.
   */
  setContentEnd(end: number): void {
    if (this.#pending > 0 || end > this.#end || end < 0) {
      throw new RangeError(`setContentEnd(${end}): past the content end, or appends are pending`);
    }
    this.#end = this.#flushed = end;
  }

  /**
   * Writes zeros ahead of the appends, up to {@link PREALLOCATE_CHUNK} bytes beyond what is already there (never past
   * `limit`), once fewer than half a chunk are left. An fdatasync then writes the zeros and the size change once,
   * and each later one that covers appends into them has only data to write: no block allocation or size change
   * to commit to the journal (BENCHMARKS.md, "Code constants"; `fallocate` would not do, as writing into its
   * unwritten extents changes metadata too). The zeros start at or after
   * {@link DataFile.size}, so they never overwrite an append, buffered or not. Returns the bytes written.
   */
  preallocate(limit: number): number {
    this.#checkWritable();
    if (this.#allocated - this.#end >= PREALLOCATE_CHUNK / 2) return 0;
    const from = Math.max(this.#allocated, this.#end);
    const to = Math.min(from + PREALLOCATE_CHUNK, limit);
    if (to <= from) return 0;
    zeros ??= Buffer.alloc(PREALLOCATE_CHUNK);
    this.#file.writeAt(from, zeros, 0, to - from);
    this.#allocated = to;
    return to - from;
  }

  /**
   * Seals the file: flushes, cuts the zeros written ahead (the file then ends where its content does) and fsyncs,
   * so that the size change is durable before a hint file describes the file; then appends a sync point attesting
   * all of it, and fsyncs again.
   */
  seal(): void {
    if (!this.#writable) return;
    this.flush();
    // The length on disk, not #allocated: a zero write that failed half way may have lengthened the file too.
    if (this.#file.length() !== this.#end) this.#file.setLength(this.#end);
    this.#allocated = this.#end;
    this.sync();
    // A last sync point attests the whole file, so that damage anywhere in it is reported as such (an fsync more).
    if (this.#end > 0 && this.#end !== this.#afterSyncPoint) {
      this.appendSyncPoint();
      this.sync();
      this.#allocated = this.#end;
    }
  }

  /** The append buffer: encode a record at the index {@link DataFile.reserve} returned, then {@link DataFile.commit} it. */
  get buffer(): Buffer {
    return this.#buffer;
  }

  /** Makes room for `size` bytes in {@link DataFile.buffer} (flushing it when full) and returns where they go. */
  reserve(size: number): number {
    this.#checkWritable();
    if (this.#pending + size > this.#buffer.length) {
      this.flush();
      // A record larger than the buffer gets a buffer of its own until the next flush.
      if (size > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(size);
    }
    return this.#pending;
  }

  /** Appends the `size` bytes just encoded at {@link DataFile.reserve}'s index; returns their file position. */
  commit(size: number): number {
    const position = this.#end;
    this.#pending += size;
    this.#end += size;
    return position;
  }

  /**
   * Appends a sync point (record.ts) when an fsync has made more of the file durable than the last one attests, so
   * that recovery can tell damage to those bytes from a power cut's torn tail after them. Called before a record.
   * Under sync mode `never` only opens and seals fsync, so only what they made durable is attested.
   */
  appendSyncPoint(): void {
    const end = this.#synced;
    if (end <= this.#attested || this.#end === this.#afterSyncPoint) return;
    const at = this.reserve(SYNC_POINT_SIZE);
    encodeSyncPointInto(this.#buffer, at, end);
    this.commit(SYNC_POINT_SIZE);
    this.#attested = end;
    this.#afterSyncPoint = this.#end;
  }

  /** Appends `bytes` and returns the position they start at. */
  append(bytes: Uint8Array): number {
    const at = this.reserve(bytes.length); // may swap in a bigger buffer
    this.#buffer.set(bytes, at);
    return this.commit(bytes.length);
  }

  /** Reads exactly `length` bytes at `position`; throws raf's `EOFError` when the file ends first. */
  readAt(position: number, buffer: Uint8Array, offset: number, length: number): void {
    if (position >= this.#flushed) {
      if (position + length > this.#end) throw new EOFError();
      const from = position - this.#flushed;
      buffer.set(this.#buffer.subarray(from, from + length), offset);
      return;
    }
    if (position + length > this.#flushed) this.flush();
    this.#file.readFullyAt(position, buffer, offset, length);
  }

  /** Reads up to `length` bytes at `position` and returns how many it read (fewer only at EOF). */
  read(position: number, buffer: Uint8Array, offset: number, length: number): number {
    if (position + length > this.#flushed) this.flush();
    let done = 0;
    while (done < length) {
      const n = this.#file.readAt(position + done, buffer, offset + done, length - done);
      if (n <= 0) break;
      done += n;
    }
    return done;
  }

  /** Hands buffered appends to the OS (one `pwrite`). On failure they stay buffered, and the next flush retries. */
  flush(): void {
    if (this.#pending === 0) return;
    this.#file.writeAt(this.#flushed, this.#buffer, 0, this.#pending);
    this.#flushed = this.#end;
    if (this.#flushed > this.#allocated) this.#allocated = this.#flushed;
    this.#pending = 0;
    if (this.#buffer.length > APPEND_BUFFER) this.#buffer = Buffer.allocUnsafe(APPEND_BUFFER);
  }

  /** Flushes, then fsyncs (data and metadata). */
  sync(): void {
    if (!this.#writable) return;
    this.flush();
    const end = this.#flushed;
    this.#file.sync();
    this.#synced = Math.max(this.#synced, end);
  }

  /**
   * Flushes, then fdatasyncs: enough for appends, since it also flushes the size change needed to read them back;
   * it skips timestamps, which makes it cheaper than an fsync (see BENCHMARKS.md, "Code choices").
   */
  datasync(): void {
    if (!this.#writable) return;
    this.flush();
    const end = this.#flushed;
    this.#file.datasync();
    this.#synced = Math.max(this.#synced, end);
  }

  /**
   * Flushes, then runs `fdatasync` on a libuv worker thread (the backend's async twin; raf's synchronous class has
   * none), so the event loop keeps running, and appends keep gathering, meanwhile.
   */
  async datasyncAsync(): Promise<void> {
    this.#checkWritable();
    this.flush();
    const end = this.#flushed;
    const r = await this.#backend.datasyncAsync(this.#file.fd);
    if (r < 0) throw systemCallError(r, "fdatasync", this.path);
    // Not past a cut back made meanwhile (a failed write): those bytes are gone.
    this.#synced = Math.min(Math.max(this.#synced, end), this.#flushed);
  }

  /** Cuts the file to `length` bytes. */
  truncate(length: number): void {
    this.#checkWritable();
    this.flush();
    this.#file.setLength(length);
    this.#end = this.#flushed = this.#allocated = length;
    this.#synced = Math.min(this.#synced, length);
    this.#attested = Math.min(this.#attested, length);
    this.#afterSyncPoint = -1;
    if (length >= SYNC_POINT_SIZE) this.#noteSealed();
  }

  /** Where the appends handed to the OS end: those after it are still in {@link DataFile.buffer}. */
  get flushedEnd(): number {
    return this.#flushed;
  }

  /**
   * Cuts the content back to `at` (appends whose write or fsync failed), or to the end of what was handed to the OS
   * if that comes first: drops every buffered append (before any system call, so that no later flush writes them
   * even when the cut fails; {@link DataFile.size} is the cut point from then on), cuts the file (the zeros written
   * ahead with it) and fsyncs. When `ftruncate` fails, zeros are written over everything after the cut point
   * instead: a zero tail is the file's clean end too, which the next open cuts.
   */
  cutBack(at: number): void {
    this.#checkWritable();
    const end = Math.max(0, Math.min(at, this.#flushed));
    this.#pending = 0;
    this.#end = this.#flushed = this.#allocated = end;
    this.#synced = Math.min(this.#synced, end);
    this.#attested = Math.min(this.#attested, end);
    this.#afterSyncPoint = -1;
    if (this.#buffer.length > APPEND_BUFFER) this.#buffer = Buffer.allocUnsafe(APPEND_BUFFER);
    try {
      this.#file.setLength(end);
    } catch (error) {
      try {
        this.#zeroFrom(end);
      } catch {
        throw error; // the cut's own error is the one to report
      }
    }
    this.#file.sync();
  }

  /** Writes zeros from `from` to the file's length on disk (which a failed write may have left past the content). */
  #zeroFrom(from: number): void {
    const length = this.#file.length();
    zeros ??= Buffer.alloc(PREALLOCATE_CHUNK);
    for (let at = from; at < length; at += PREALLOCATE_CHUNK) {
      this.#file.writeAt(at, zeros, 0, Math.min(PREALLOCATE_CHUNK, length - at));
    }
  }

  /** Flushes and closes. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (this.#writable) this.flush();
    } finally {
      this.#file.close();
    }
  }

  #checkWritable(): void {
    if (!this.#writable) throw new TypeError(`${this.path} is open read-only`);
  }
}

/** Reads a whole (small) file. */
export function readWholeFile(path: string, backend: Backend = getBackend()): Uint8Array {
  const file = openNoFollow(path, "r", backend);
  try {
    const out = new Uint8Array(file.length());
    file.readFullyAt(0, out);
    return out;
  } finally {
    file.close();
  }
}

/**
 * Makes creations, renames and unlinks in a directory survive a power loss: fsync of the directory on
 * POSIX, `FlushFileBuffers` of a directory handle on Windows (syscall-state's `syncDirectory`).
 */
export function syncDirectory(dir: string): void {
  const r = syncDirectoryEntries(dir);
  // EINVAL: a filesystem that cannot fsync directories; nothing more can be done there.
  if (r < 0 && systemCallError(r, "fsync", dir).code !== "EINVAL") {
    throw systemCallError(r, "fsync", dir);
  }
}
