// Real `using` syntax, parsed and run by the runtime itself: imported only where syntax.mjs found it parses.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { RandomAccessFile } from "@rafkit/raf";

/** `using` closes the file at the end of the block, and releases a lock before the file closes. */
export function usingCloses(path) {
  let seen;
  {
    using f = new RandomAccessFile(path, "rw", { backend: "native" });
    seen = f;
    {
      using lock = f.lock();
      assert.equal(lock.isValid(), true);
      f.writeInt(0x01020304);
      seen.lock = lock;
    }
    assert.equal(seen.lock.isValid(), false, "the inner block released the lock");
    assert.equal(f.closed, false);
  }
  assert.equal(seen.closed, true);
  assert.deepEqual([...fs.readFileSync(path)], [1, 2, 3, 4], "closing flushed the write");
}

/** A throw inside the block still closes the file. */
export function usingClosesOnThrow(path) {
  let seen;
  assert.throws(
    () => {
      using f = new RandomAccessFile(path, "rw");
      seen = f;
      f.readInt();
    },
    { code: "ERR_RAF_EOF" },
  );
  assert.equal(seen.closed, true);
}
