// The floor of any buffered file API: the least a file object with a window must do per primitive.

/**
 * A minimal buffered file (sequential use only, as the benchmark makes): the pointer as an index into one
 * window, with a bound per direction. Each primitive is one bound check, one `DataView` access and one store
 * of the index, inline; when the bound fails, an out-of-line refill or flush makes the one system call. No
 * checks, no errors beyond end of file, no dirty-range tracking: nothing rafkit could leave out, so rafkit's
 * distance from it is the cost of being a real file. Big-endian; the view runs 8 bytes past the window, as
 * rafkit's does (a signed set ending at a view's last byte deoptimises on Node 24). One method per primitive,
 * written out as rafkit's generated ones are, so each inlines its own `DataView` call.
 */
export class BufferedFloorFile {
  constructor(fd, backend, capacity = 8192) {
    const backing = new ArrayBuffer(capacity + 8);
    this.fd = fd;
    this.backend = backend;
    this.bytes = new Uint8Array(backing, 0, capacity);
    this.view = new DataView(backing);
    /** File position of `bytes[0]`. */
    this.base = 0;
    /** The pointer's index in `bytes`. */
    this.cursor = 0;
    /** Reads may go up to here (-1: not reading). */
    this.readEnd = -1;
    /** Writes may go up to here (-1: not writing); `bytes[0, cursor)` are then unwritten to the file. */
    this.writeEnd = -1;
  }

  seek(p) {
    this.flush();
    this.base = p;
    this.cursor = 0;
    this.readEnd = -1;
  }

  flush() {
    if (this.writeEnd < 0) return;
    this.backend.pwrite(this.fd, this.bytes, 0, this.cursor, this.base);
    this.writeEnd = -1;
    this.base += this.cursor;
    this.cursor = 0;
  }

  /** Starts the window at the pointer (a flush first when writing). */
  #moveToPointer() {
    if (this.writeEnd >= 0) this.flush();
    else {
      this.base += this.cursor;
      this.cursor = 0;
    }
  }

  /** Refills the window at the pointer with one `pread`; the index of `n` bytes there, consumed. */
  refill(n) {
    this.#moveToPointer();
    const r = this.backend.pread(this.fd, this.bytes, 0, this.bytes.length, this.base);
    if (r < n) throw new RangeError("end of file");
    this.readEnd = r;
    this.cursor = n;
    return 0;
  }

  /** Room for `n` bytes at the pointer: a flush when the window is full. Its index, taken. */
  room(n) {
    this.#moveToPointer();
    this.readEnd = -1;
    this.writeEnd = this.bytes.length;
    this.cursor = n;
    return 0;
  }

  close() {
    this.flush();
  }

  readShort() {
    const i = this.cursor;
    if (i + 2 > this.readEnd) return this.view.getInt16(this.refill(2));
    this.cursor = i + 2;
    return this.view.getInt16(i);
  }

  readInt() {
    const i = this.cursor;
    if (i + 4 > this.readEnd) return this.view.getInt32(this.refill(4));
    this.cursor = i + 4;
    return this.view.getInt32(i);
  }

  readLong() {
    const i = this.cursor;
    if (i + 8 > this.readEnd) return this.view.getBigInt64(this.refill(8));
    this.cursor = i + 8;
    return this.view.getBigInt64(i);
  }

  writeShort(v) {
    const i = this.cursor;
    if (i + 2 > this.writeEnd) this.view.setInt16(this.room(2), v);
    else {
      this.view.setInt16(i, v);
      this.cursor = i + 2;
    }
  }

  writeInt(v) {
    const i = this.cursor;
    if (i + 4 > this.writeEnd) this.view.setInt32(this.room(4), v);
    else {
      this.view.setInt32(i, v);
      this.cursor = i + 4;
    }
  }

  writeLong(v) {
    const i = this.cursor;
    if (i + 8 > this.writeEnd) this.view.setBigInt64(this.room(8), v);
    else {
      this.view.setBigInt64(i, v);
      this.cursor = i + 8;
    }
  }
}
