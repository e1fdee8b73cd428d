// Real `await using` syntax, parsed and run by the runtime itself: imported only where syntax.mjs found it parses.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { AsyncRandomAccessFile } from "@rafkit/raf";

/** `await using` awaits the close (and a lock's release) at the end of the block. */
export async function awaitUsingCloses(path) {
  let seen;
  {
    await using f = await AsyncRandomAccessFile.open(path, "rw", { backend: "native" });
    seen = f;
    {
      await using lock = await f.lock();
      seen.lock = lock;
      await f.writeInt(7);
    }
    assert.equal(seen.lock.isValid(), false);
  }
  assert.equal(seen.closed, true);
  assert.deepEqual([...fs.readFileSync(path)], [0, 0, 0, 7]);
}
