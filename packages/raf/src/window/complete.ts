import { errnoOf, systemCallError } from "@rafkit/syscall-state";
import { CALL, DIRECT_READ, DIRECT_WRITE, FILL, FLUSH } from "./request";
import { CLEAN, type Window } from "./window";

const EINTR = errnoOf("EINTR");
const EIO = errnoOf("EIO");
const EFBIG = errnoOf("EFBIG");
const EINVAL = errnoOf("EINVAL");

/**
 * Applies the result of the pending request. Throws the Node-shaped error for `-errno`; an
 * interrupted call (`-EINTR`) changes nothing, so planning again repeats it. Failed flushes keep
 * their data dirty (a later flush writes it), except unbuffered, where as in the JDK a failed write
 * is simply not done, and for the errors no retry can clear (`EFBIG`, `EINVAL`: the OS refuses the
 * offset), which would otherwise fail every later operation that moves the window.
 */
export function complete(w: Window, r: number): void {
  if (w.request.purpose === CALL) {
    w.request.callResult = r;
    w.request.purpose = 0;
    return;
  }
  if (r < 0) {
    if (r === -EINTR) return;
    if (w.capacity === 0) {
      if (w.request.purpose === FLUSH) dropUnflushed(w);
      // Unbuffered: bytes a failed read left behind must not serve the next hot-path read.
      else if (!w.dirty) w.valid = 0;
    } else if (w.request.purpose === FLUSH && (r === -EFBIG || r === -EINVAL)) {
      // The window's bytes include the ones the file will never hold: forget them all. In `rws`/`rwd`, when
      // this is the flush of the caller's own write, that write is done only as far as its bytes reached the
      // file: the pointer goes back to just after them (as Java's write(2) loop leaves the file offset).
      if (w.writeThrough && w.progress.writeStart >= 0) {
        // `dirtyFrom`: the first byte the flush did not write.
        w.rawPointer = Math.min(
          Math.max(w.start + w.dirtyFrom, w.progress.writeStart),
          w.rawPointer,
        );
      }
      w.dirtyFrom = CLEAN;
      w.dirtyTo = 0;
      w.valid = 0;
    }
    if (w.request.purpose === FLUSH) w.progress.writeStart = -1;
    throw systemCallError(r, w.request.isWrite ? "write" : "read", w.path);
  }
  switch (w.request.purpose) {
    case FILL:
      w.progress.osReadMade = true;
      if (r === 0) w.progress.endOfFile = true;
      else w.valid += r;
      break;
    case FLUSH:
      if (r === 0) {
        if (w.capacity === 0) dropUnflushed(w);
        throw systemCallError(-EIO, "write", w.path);
      }
      // `writeStart` stays: a write that moves the window flushes more than once, and a later flush of it
      // that the OS refuses must still put the pointer after what reached the file.
      w.flushed(r);
      break;
    case DIRECT_READ:
      w.progress.osReadMade = true;
      if (r === 0) w.progress.endOfFile = true;
      else {
        w.rawPointer += r;
        w.progress.transferred += r;
      }
      break;
    case DIRECT_WRITE: {
      if (r === 0) throw systemCallError(-EIO, "write", w.path);
      const from = w.request.position - w.start;
      // The window is clean here; forget it if it overlaps what was just written.
      if (from < w.valid && from + r > 0) w.valid = 0;
      w.rawPointer += r;
      w.progress.transferred += r;
      break;
    }
  }
  w.request.purpose = 0;
}

/** Unbuffered: a write that failed is not done; the pointer stays after what did reach the file. */
function dropUnflushed(w: Window): void {
  w.rawPointer = w.start + w.dirtyFrom;
  w.dirtyFrom = CLEAN;
  w.dirtyTo = 0;
  w.valid = 0;
}
