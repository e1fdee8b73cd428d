import { BigEndianView, type ViewCodec } from "@rafkit/bits";
import { errnoOf, systemCallError } from "@rafkit/syscall-state";
import { ClosedError } from "../errors";
import { giveBuffer, takeBuffer } from "./buffer-pool";
import { CALL, OperationProgress, PendingRequest } from "./request";

const EBADF = errnoOf("EBADF");
const EFBIG = errnoOf("EFBIG");

/**
 * The end of what a file holds for rafkit: positions past `Number.MAX_SAFE_INTEGER` are not exact numbers,
 * so no transfer goes past it (a file system's largest file size, as Linux's `s_maxbytes`: reads stop
 * there as at end of file, and a write that would pass it fails with `EFBIG` before any byte is written).
 * The pointer is therefore always exact, and every position a system call is given is safe.
 */
export const MAX_POSITION = Number.MAX_SAFE_INTEGER;

/** Bytes of the window's `DataView` past its buffer (the widest primitive). */
const VIEW_SLACK = 8;
/** The memory of an unbuffered window: 8 bytes, the widest primitive, and the view's slack. */
export const UNBUFFERED_MEMORY = 8 + VIEW_SLACK;

/** What a released window's `buf` and `view` show instead of the memory it gave back (see {@link Window.release}). */
const RELEASED = new ArrayBuffer(8 + VIEW_SLACK);
const RELEASED_BUF = new Uint8Array(RELEASED, 0, 8);
const RELEASED_VIEW = new DataView(RELEASED);
/** No range's view: what {@link Window.dirtyBytes} starts from, and goes back to at release. */
const NO_DIRTY_VIEW = RELEASED_BUF.subarray(0, 0);

/** `dirtyFrom` of a clean window: above any index, so a commit's `i < dirtyFrom` test alone starts a range. A Smi. */
export const CLEAN = 0x3fffffff;

/** What a window's cursor served last ({@link Window.seek} attaches the same kind again). */
const NO_CURSOR = 0;
const READ_CURSOR = 1;
const WRITE_RUN = 2;

/**
 * The I/O-free core of a random access file: the file pointer and ONE window over a file range that
 * serves both reads and writes, with its dirty range. It performs no I/O itself. This class holds the
 * state and the hot paths (a primitive served from the window, a write run extended); the slow paths
 * are planners, functions of the window (`read-planning.ts`, `write-planning.ts`): each either says
 * the operation can proceed from the window (`READY`) or names the single system call its driver must
 * make next (`IO`): a `pread` to refill, or a `pwrite` to flush. The driver (sync or async) makes the
 * call with its backend, hands the result to `complete` (`complete.ts`), and plans again. So
 * buffering logic lives here once, whatever the driver.
 *
 * Invariants: the window holds file bytes `[start, start + valid)`, as the instance sees them (its
 * own unflushed writes included); bytes `[dirtyFrom, dirtyTo)` of it are not yet in the file. An open
 * write run adds `[runFrom, cursor)` to both, lazily: every slow path settles it first. With
 * capacity 0 (unbuffered) the window is an 8-byte scratch that never keeps data between operations,
 * and every write goes straight through, so each primitive costs exactly one system call, as the JDK's.
 *
 * The hot paths keep the pointer as {@link cursor}, its index in `buf`, while a cursor is attached: for
 * reads (after a primitive read, up to {@link readEnd}) or for a write run (up to {@link runEnd}). A
 * primitive then costs one comparison with one bound and one store, and `start` is not read. Every
 * other operation {@link settle}s first, which puts the pointer back in {@link rawPointer}.
 */
export class Window {
  // The fields the constructor sets are `declare`d (emitted nowhere): a plain declaration compiles to a
  // field that starts `undefined`, and V8, which types a field by its first value, would then check the
  // map of `view` and `codec` on every primitive (BENCHMARKS.md, "Fields that start with their lasting value").

  /** The open descriptor. */
  declare readonly fd: number;
  /** The path, for error messages. */
  declare readonly path: string;
  /**
   * The file pointer while no cursor is attached (stale while one is). The slow paths, which all
   * {@link settle} first, use it directly; everything else goes through {@link pointer}.
   */
  rawPointer = 0;
  /** The pointer's index in `buf` while a cursor is attached (`start + cursor` is then the pointer). */
  cursor = 0;
  /**
   * The read cursor's bound: a primitive of `n` bytes at {@link cursor} is readable from `buf` while
   * `cursor + n <= readEnd`; -1 when no read cursor is attached (always during a write run).
   */
  readEnd = -1;
  /**
   * The window's bytes (at least 8, so any primitive fits even when `capacity` is 0 or 1); a shared
   * 8-byte stand-in once {@link release}d.
   */
  declare buf: Uint8Array;
  /** `buf` as a DataView, made once: primitives are decoded and encoded through it. */
  declare view: DataView;
  /** The byte order's codec for {@link view}; kept here so the hot paths reach it with the window. */
  declare readonly codec: ViewCodec;
  /** File position of `buf[0]`. */
  start = 0;
  /** Bytes of `buf` holding file content. */
  valid = 0;
  /** Dirty range in `buf`; clean when `dirtyTo <= dirtyFrom` (then `dirtyFrom` is {@link CLEAN} and `dirtyTo` 0). */
  dirtyFrom = CLEAN;
  dirtyTo = 0;
  /**
   * A write run: sequential primitive writes from `buf[runFrom]` up to {@link cursor}, not yet added to
   * `valid` and the dirty range (see {@link settle}). The write hot path may extend it while
   * `cursor` plus the width stays within `runEnd`; `runEnd` is -1 when no run is open. A read at the
   * pointer meanwhile takes the slow path (no read cursor is attached), which settles the run: read
   * bytes never join it.
   */
  runFrom = 0;
  runEnd = -1;
  /** What the cursor served when it was last detached: {@link seek} attaches that kind again. */
  #lastCursor = NO_CURSOR;
  /** The configured buffer size (0 = unbuffered). */
  declare readonly capacity: number;
  /** Unbuffered: `buf.subarray(0, k)` for each width k, made once, so a primitive's system call allocates no view. */
  declare readonly exactViews: Uint8Array[] | undefined;
  /** Where the write hot path may write up to: `capacity`, or 0 when writes must take the slow path (read only, write-through, closed). */
  declare limit: number;
  /** Every write must reach the OS before its call returns (`rws`, `rwd`, unbuffered). */
  declare readonly writeThrough: boolean;
  /** Writes are refused (mode `r`). */
  declare readonly readOnly: boolean;
  closed = false;
  /**
   * System calls of the async class on `fd` now on the thread pool: at a worker's exit, closing `fd` under one
   * could let it write into whichever file takes the number next (leak-guard.ts).
   */
  callsInFlight = 0;
  /** Names the open file for this thread's lock registry (`thread-locks.ts`); without it, `fstat` of `fd` does. */
  declare readonly identify: (() => string | null) | undefined;
  /** The last view {@link dirtyBytes} made, kept for the next flush of the same range. */
  #dirtyView: Uint8Array = NO_DIRTY_VIEW;

  /** The system call the current operation waits for, once a plan answered `IO`. */
  declare readonly request: PendingRequest;
  /** What the current operation has done so far (reset by {@link begin}). */
  readonly progress = new OperationProgress();

  constructor(
    fd: number,
    path: string,
    capacity: number,
    options: {
      readOnly: boolean;
      writeThrough: boolean;
      codec?: ViewCodec;
      /** An unbuffered window's memory ({@link UNBUFFERED_MEMORY} bytes, a direct buffer's); else its own. */
      memory?: ArrayBufferLike | undefined;
      identify?: (() => string | null) | undefined;
    },
  ) {
    this.fd = fd;
    this.path = path;
    this.capacity = capacity;
    // The view runs VIEW_SLACK bytes past `buf`, so no primitive in the window ends at the view's last byte:
    // on V8 13.6 (Node 24) a DataView setInt16/setInt32 ending there deoptimises, and the setter is then
    // called out of line, several times slower, for the rest of the process (BENCHMARKS.md).
    // Buffered windows reuse the memory of windows closed before (`release`).
    const length = Math.max(capacity, 8);
    const bytes =
      capacity > 0
        ? takeBuffer(length + VIEW_SLACK)
        : (options.memory ?? new ArrayBuffer(UNBUFFERED_MEMORY));
    this.buf = new Uint8Array(bytes, 0, length);
    this.request = new PendingRequest(this.buf);
    this.view = new DataView(bytes);
    this.codec = options.codec ?? BigEndianView;
    const buf = this.buf;
    this.exactViews =
      capacity === 0 ? Array.from({ length: 9 }, (_, k) => buf.subarray(0, k)) : undefined;
    this.identify = options.identify;
    this.readOnly = options.readOnly;
    this.writeThrough = options.writeThrough || capacity === 0;
    // Write-through modes take the slow path for every write, so the hot path never needs to flush.
    this.limit = this.readOnly || this.writeThrough ? 0 : capacity;
  }

  /**
   * Unbuffered and idle (open, holding nothing): the exact-length view of `buf` for a primitive's single
   * `pread` at the pointer, the one a `planRead(w, n)` would ask for; otherwise `undefined`.
   */
  scratch(n: number): Uint8Array | undefined {
    return this.valid === 0 && !this.closed && this.rawPointer + n <= MAX_POSITION
      ? this.exactViews?.[n]
      : undefined;
  }

  /**
   * A fresh window takes the `r` bytes a `pread` at file position 0 put at the start of `buf` as its
   * content, and attaches a read cursor at the pointer (0), so the first primitive read is a hot one.
   */
  holdFirst(r: number): void {
    this.start = 0;
    this.valid = Math.min(r, this.capacity);
    this.attachRead();
  }

  /** Whether a cursor (read or write run) holds the pointer. */
  get attached(): boolean {
    return this.readEnd >= 0 || this.runEnd >= 0;
  }

  /** The file pointer. Moving it detaches the cursor, ending the write run, whose extent the cursor marks. */
  get pointer(): number {
    return this.attached ? this.start + this.cursor : this.rawPointer;
  }

  set pointer(p: number) {
    this.settle();
    this.rawPointer = p;
  }

  /**
   * `seek`: moves the pointer (detaching the cursor), then attaches the kind of cursor the file used last at
   * the new position, where the window allows it: a write run where a write could start one (inside the
   * window, joining the dirty range), a read cursor over the window's bytes. A loop of `seek` and primitive
   * reads, or of `seek` and primitive writes, then takes no slow path per seek. An empty write run marks
   * nothing, and a read at it takes the slow path, which ends it, as after any write.
   */
  seek(p: number): void {
    this.pointer = p;
    if (this.#lastCursor === READ_CURSOR) this.attachRead();
    else if (this.#lastCursor === WRITE_RUN) {
      const i = p - this.start;
      if (i >= 0 && i <= this.valid && i < this.limit && this.joins(i, i)) this.openRun(i);
    }
  }

  /** Whether the window holds bytes not yet written to the file. */
  get dirty(): boolean {
    return this.dirtyTo > this.dirtyFrom || (this.runEnd >= 0 && this.cursor > this.runFrom);
  }

  /** How many bytes a flush would write now (the dirty range, the write run included). */
  unflushedBytes(): number {
    this.settle();
    return this.dirty ? this.dirtyTo - this.dirtyFrom : 0;
  }

  /**
   * Detaches the cursor: the pointer goes back to {@link rawPointer}, and a write run's bytes join
   * `valid` and the dirty range. Every operation but the hot paths starts here, so the cursor's
   * bookkeeping costs one comparison per run instead of several per primitive.
   */
  settle(): void {
    if (this.readEnd >= 0) {
      this.readEnd = -1;
      this.rawPointer = this.start + this.cursor;
      this.#lastCursor = READ_CURSOR;
    }
    if (this.runEnd < 0) return;
    this.runEnd = -1;
    this.#lastCursor = WRITE_RUN;
    const to = this.cursor;
    this.rawPointer = this.start + to;
    if (to > this.runFrom) this.mark(this.runFrom, to);
  }

  /**
   * Attaches a read cursor at the pointer after a slow-path read (settled), so the next primitive reads
   * take the hot path. Not unbuffered (the window keeps nothing between operations), nor closed.
   */
  attachRead(): void {
    if (this.capacity === 0 || this.closed) return;
    const i = this.rawPointer - this.start;
    if (i >= 0 && i <= this.valid) {
      this.cursor = i;
      this.readEnd = this.valid;
    }
  }

  /** Throws when closed (Java's "Stream Closed"). */
  checkOpen(): void {
    if (this.closed) throw new ClosedError();
  }

  /** Starts a slow-path operation: throws when closed, and resets per-operation progress. */
  begin(): void {
    this.settle();
    this.checkOpen();
    this.progress.writeStart = -1;
    this.progress.transferred = 0;
    this.progress.endOfFile = false;
    this.progress.osReadMade = false;
    this.progress.lineText = "";
    this.progress.lineAfterCR = false;
    // Unbuffered: never serve bytes a failed operation left behind.
    if (this.capacity === 0 && !this.dirty) this.valid = 0;
  }

  /** {@link begin} for an operation that writes: also refuses writes in mode `r`, as the OS would. */
  beginWrite(): void {
    this.begin();
    if (this.readOnly) throw systemCallError(-EBADF, "write", this.path);
    this.progress.writeStart = this.rawPointer;
  }

  /** Throws `EFBIG` when `n` bytes at the pointer (settled) would end past {@link MAX_POSITION}: before anything is written. */
  checkWriteEnd(n: number): void {
    // Exact up to MAX_POSITION; a sum past it rounds to at least 2**53, so the test stays right.
    if (this.rawPointer + n > MAX_POSITION) throw systemCallError(-EFBIG, "write", this.path);
  }

  /**
   * Hot path: the index in `buf` of `n` readable bytes at the read cursor, advancing it; -1 to take the
   * slow path (always when no read cursor is attached: during a write run, unbuffered, closed).
   */
  takeRead(n: number): number {
    const i = this.cursor;
    if (i + n <= this.readEnd) {
      this.cursor = i + n;
      return i;
    }
    return -1;
  }

  /**
   * The hot-path test of a primitive write: the index in `buf` where `n` bytes at the pointer extend the
   * open write run; -1 for the slow path, which opens runs (`commit`). The caller writes them, then sets
   * {@link cursor} to the index plus `n`. Both classes' generated writers write this test out, inline.
   */
  runIndex(n: number): number {
    const i = this.cursor;
    return i + n <= this.runEnd ? i : -1;
  }

  /** The index in `buf` where `n` bytes at the pointer may be written; -1 to take the slow path. Call {@link commit} after writing them. */
  writeIndex(n: number): number {
    this.settle();
    const i = this.rawPointer - this.start;
    return i >= 0 &&
      i <= this.valid &&
      i + n <= this.limit &&
      this.rawPointer + n <= MAX_POSITION &&
      this.joins(i, i + n)
      ? i
      : -1;
  }

  /**
   * Records that `n` bytes were written at `buf[i]` (from {@link writeIndex} or `planRoom`),
   * advancing the pointer, and opens a write run after them. Returns true when the driver must now
   * `planFlush` (write-through).
   */
  commit(i: number, n: number): boolean {
    this.settle();
    this.mark(i, i + n);
    this.rawPointer += n;
    // Write-through modes (and `r`, and closed) have no limit, so they never run.
    if (this.limit > 0) this.openRun(i + n);
    return this.writeThrough;
  }

  /** Opens a write run at `buf[from]`, the pointer's index (settled, `from <= valid`). It never reaches past {@link MAX_POSITION}. */
  private openRun(from: number): void {
    this.runFrom = from;
    this.cursor = from;
    this.runEnd = Math.min(this.limit, MAX_POSITION - this.start);
  }

  /**
   * Whether bytes written at `buf[from, to)` keep the dirty range one run of bytes this instance wrote
   * (they touch or overlap it, or it is empty). Across a gap, the range would take in bytes the instance
   * only read, or wrote and flushed before, and the flush would write them back over what another
   * instance or process wrote there since: such a write flushes the range first.
   */
  joins(from: number, to: number): boolean {
    return this.dirtyTo <= this.dirtyFrom || (from <= this.dirtyTo && to >= this.dirtyFrom);
  }

  /** Adds `buf[from, to)`, just written, to `valid` and the dirty range (settled: with no run open). */
  mark(from: number, to: number): void {
    // Callers check joins(from, to) first: the range only ever covers bytes this instance wrote. Nothing
    // written (a zero-length array) marks nothing: a lone `dirtyFrom` would start a range no write made.
    if (to <= from) return;
    // A clean window's range is (CLEAN, 0), so widening it covers starting one.
    if (to > this.valid) this.valid = to;
    if (from < this.dirtyFrom) this.dirtyFrom = from;
    if (to > this.dirtyTo) this.dirtyTo = to;
  }

  /**
   * The dirty range, `buf[dirtyFrom, dirtyTo)`, as a view of its own (what the native backend passes on
   * without making one): the view made last is kept, so flushing the same range again allocates nothing.
   */
  dirtyBytes(): Uint8Array {
    const v = this.#dirtyView;
    // `buf` starts at offset 0 of its memory, so a view's offset there is its index in `buf`.
    if (v.byteOffset === this.dirtyFrom && v.length === this.dirtyTo - this.dirtyFrom) return v;
    this.#dirtyView = this.buf.subarray(this.dirtyFrom, this.dirtyTo);
    return this.#dirtyView;
  }

  /** `r` bytes from the start of the dirty range reached the file (a flush's answer). */
  flushed(r: number): void {
    this.dirtyFrom += r;
    if (this.dirtyFrom >= this.dirtyTo) {
      this.dirtyFrom = CLEAN;
      this.dirtyTo = 0;
      if (this.capacity === 0) this.valid = 0;
    }
  }

  /** Advances the pointer over `k` bytes already taken from `buf` (unbuffered: forgets them). */
  consume(k: number): void {
    this.rawPointer += k;
    if (this.capacity === 0) this.valid = 0;
  }

  /** The file's length as this instance sees it, given the OS's `size`: unflushed writes count. */
  logicalLength(size: number): number {
    this.settle();
    if (!this.dirty) return size;
    const end = this.start + this.dirtyTo;
    return Math.max(end, size);
  }

  /** Applies a successful `ftruncate(newLength)` (the window was flushed first): Java clamps the pointer. */
  truncated(newLength: number): void {
    this.settle();
    if (this.rawPointer > newLength) this.rawPointer = newLength;
    const keep = newLength - this.start;
    if (keep < this.valid) this.valid = Math.max(keep, 0);
  }

  /**
   * Forgets the window's clean bytes, so the next read asks the OS: after taking a lock, another
   * process may have changed the file. Dirty bytes are kept (flush them first to forget everything).
   */
  discard(): void {
    this.settle();
    if (!this.dirty) this.valid = 0;
  }

  /** Marks the window closed: every hot path now fails over to a slow path that throws. */
  markClosed(): void {
    this.settle();
    this.closed = true;
    this.start = -1;
    this.valid = 0;
    this.limit = 0;
  }

  /**
   * After an explicit close (no operation of the instance can run again): gives the window's memory to
   * the next window opened, and points `buf`, `view` and the request at a shared stand-in, so nothing
   * reached through this window can touch that memory again. Unbuffered windows keep theirs (their
   * exact-length views share it). A file collected unclosed keeps its memory: the GC frees it.
   */
  release(): void {
    if (!this.closed || this.capacity === 0 || this.buf === RELEASED_BUF) return;
    const memory = this.view.buffer as ArrayBuffer;
    this.buf = RELEASED_BUF;
    this.view = RELEASED_VIEW;
    this.request.buffer = RELEASED_BUF;
    this.#dirtyView = NO_DIRTY_VIEW;
    giveBuffer(memory);
  }

  /** Whether the pending request is a `requestCall` (else a `pread`/`pwrite`). */
  get isCall(): boolean {
    return this.request.purpose === CALL;
  }

  /**
   * Whether `len` bytes at `pos` may move straight between the caller's buffer and the file, with no
   * planning: the transfer bypasses the window anyway (at least its capacity), shares no byte with it
   * (so it leaves none stale), and the window holds no unflushed write. Pending writes are flushed
   * before any such transfer, as `planReadBytes`/`planWriteBytes` do: a write then reaches
   * the file in program order (never after a later one), and a failing flush surfaces on the same call in
   * both classes. Writes must also check {@link readOnly}.
   */
  bypasses(pos: number, len: number): boolean {
    this.settle();
    if (this.closed || len === 0 || len < this.capacity || this.dirty) return false;
    // Near MAX_POSITION the planners cap the transfer (reads) or refuse it (writes).
    if (pos + len > MAX_POSITION) return false;
    return this.valid === 0 || pos + len <= this.start || pos >= this.start + this.valid;
  }

  /** Hot path of a positional read: the index in `buf` of `n` readable bytes at `position`, or -1. The pointer does not move. */
  takeReadAt(position: number | bigint, n: number): number {
    if (typeof position !== "number" || !(position >= 0)) return -1;
    const i = position - this.start;
    return i >= 0 && i + n <= this.valid && Number.isSafeInteger(position) ? i : -1;
  }

  /** Hot path of a positional write: the index in `buf` where `n` bytes at `position` may go, or -1 (then {@link commitAt}). */
  writeIndexAt(position: number | bigint, n: number): number {
    // A positional write ends the run and the read cursor: it may widen `valid`, their bound.
    this.settle();
    if (typeof position !== "number" || !(position >= 0)) return -1;
    const i = position - this.start;
    return i >= 0 &&
      i <= this.valid &&
      i + n <= this.limit &&
      Number.isSafeInteger(position) &&
      position + n <= MAX_POSITION &&
      this.joins(i, i + n)
      ? i
      : -1;
  }

  /** {@link commit} for a positional write: the pointer does not move. */
  commitAt(i: number, n: number): boolean {
    this.mark(i, i + n);
    return this.writeThrough;
  }
}
