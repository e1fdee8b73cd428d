// @rafkit/raf's locks (native backend: OFD fcntl locks on Linux) within one process, against a second process of
// the same runtime, and against a worker thread; the node backend's LockUnsupportedError. Ordering is asserted by
// messages, never by timings.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { Worker } from "node:worker_threads";
import {
  AsyncRandomAccessFile,
  LockModeError,
  LockUnsupportedError,
  OverlappingFileLockError,
  RandomAccessFile,
} from "@rafkit/raf";
import { tempPath, test } from "../harness.mjs";
import { child } from "../helpers/spawn.mjs";

const T = ["native", "locks"];
const native = { backend: "native" };
const HOLDER = new URL("../helpers/lock-holder.mjs", import.meta.url);

/** Whether `promise` is still pending after the event loop has turned a few times (no timer involved). */
async function pending(promise) {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return !settled;
}

test(
  "raf locks: two instances exclude each other (OFD locks); shared locks coexist; release and close free them",
  T,
  () => {
    const p = tempPath();
    const a = new RandomAccessFile(p, "rw", native);
    const b = new RandomAccessFile(p, "rw", native);
    const l = a.tryLock();
    assert.ok(l?.isValid());
    assert.equal(l.shared, false);
    assert.equal(l.position, 0);
    assert.equal(l.size, Number.POSITIVE_INFINITY);
    assert.equal(b.tryLock({ shared: true }), null);
    assert.equal(
      b.tryLock({ position: 1 << 30, size: 1 }),
      null,
      "the whole-file lock covers offsets far past the end",
    );
    l.release();
    assert.equal(l.isValid(), false);
    const s1 = a.tryLock({ shared: true, position: 0, size: 10 });
    const s2 = b.tryLock({ shared: true, position: 5, size: 10 });
    assert.ok(s1 && s2, "shared locks coexist");
    assert.equal(
      b.tryLock({ position: 100, size: 1 })?.isValid(),
      true,
      "disjoint ranges do not conflict",
    );
    a.close();
    assert.equal(s1.isValid(), false);
    b.close();
  },
);

test(
  "raf locks: typed errors: LockModeError, OverlappingFileLockError, the same-thread wait, LockUnsupportedError",
  ["native", "node", "locks"],
  () => {
    const p = tempPath();
    fs.writeFileSync(p, new Uint8Array(8));
    const r = new RandomAccessFile(p, "r", native);
    assert.throws(
      () => r.lock(),
      (e) => e instanceof LockModeError && e.code === "ERR_RAF_LOCK_MODE",
    );
    const shared = r.lock({ shared: true });
    assert.throws(
      () => r.lock({ shared: true, position: 0, size: 4 }),
      (e) => e instanceof OverlappingFileLockError && e.code === "ERR_RAF_OVERLAPPING_LOCK",
    );
    const w = new RandomAccessFile(p, "rw", native);
    assert.throws(() => w.lock({ position: 0, size: 4 }), {
      code: "ERR_RAF_OVERLAPPING_LOCK",
      message: /would wait forever/,
    });
    w.close();
    shared.release();
    r.close();
    const n = new RandomAccessFile(p, "rw", { backend: "node" });
    assert.throws(
      () => n.tryLock(),
      (e) => e instanceof LockUnsupportedError && e.code === "ERR_RAF_LOCK_UNSUPPORTED",
    );
    n.close();
  },
);

test(
  "raf locks: the async class: tryLock, lock waits for a release in this thread, asyncDispose releases",
  ["native", "locks", "async"],
  async () => {
    const p = tempPath();
    const a = await AsyncRandomAccessFile.open(p, "rw", native);
    const b = await AsyncRandomAccessFile.open(p, "rw", native);
    const held = await a.lock();
    assert.equal(await b.tryLock(), null);
    const waiting = b.lock({ shared: true });
    assert.equal(await pending(waiting), true);
    await a.writeIntAt(0, 77);
    await held.release();
    const got = await waiting;
    assert.equal(got.shared, true);
    assert.equal(await b.readIntAt(0), 77, "the holder's write was flushed before the release");
    await got[Symbol.asyncDispose]();
    assert.equal(got.isValid(), false);
    const late = b.lock();
    const c = a.lock();
    await late;
    await b.close();
    await c;
    await a.close();
  },
);

test(
  "raf locks: a second process: its exclusive lock makes ours fail or wait until it releases",
  ["native", "locks", "async"],
  async () => {
    const p = tempPath();
    fs.writeFileSync(p, new Uint8Array(16));
    const other = child(HOLDER, [p]);
    assert.equal(await other.next(), "ready");
    other.send("lock exclusive 0 8");
    assert.equal(await other.next(), "locked");
    const sync = new RandomAccessFile(p, "rw", native);
    const af = await AsyncRandomAccessFile.open(p, "rw", native);
    assert.equal(
      sync.tryLock({ shared: true, position: 4, size: 1 }),
      null,
      "overlapping range: refused",
    );
    assert.equal(await af.tryLock({ position: 0, size: 8 }), null);
    const outside = sync.tryLock({ position: 8, size: 8 });
    assert.ok(outside, "a range outside the child's is free");
    outside.release();
    const waiting = af.lock();
    assert.equal(await pending(waiting), true, "our lock() waits for the child");
    other.send("writeInt 0 31337");
    assert.equal(await other.next(), "written");
    other.send("release");
    assert.equal(await other.next(), "released");
    const mine = await waiting;
    assert.equal(await af.readIntAt(0), 31337, "we see what the child wrote under its lock");
    other.send("lock shared 0 all");
    const childWaits = other.next();
    assert.equal(await pending(childWaits), true, "the child's lock() waits for ours");
    await mine.release();
    assert.equal(await childWaits, "locked");
    assert.equal(
      sync.tryLock({ shared: true })?.shared,
      true,
      "shared locks coexist across processes",
    );
    assert.equal(
      await af.tryLock(),
      null,
      "an exclusive one is refused while shared ones are held",
    );
    sync.close();
    await af.close();
    other.send("exit");
    assert.equal(await other.exited, 0);
  },
);

test(
  "raf locks: a worker thread's lock makes our async lock() wait until it releases",
  ["native", "locks", "workers"],
  async () => {
    const p = tempPath();
    fs.writeFileSync(p, new Uint8Array(8));
    const worker = new Worker(new URL("../helpers/worker-locker.mjs", import.meta.url), {
      workerData: { path: p },
    });
    const exited = new Promise((r) => worker.once("exit", r));
    const next = () => new Promise((r) => worker.once("message", r));
    assert.equal(await next(), "locked");
    const af = await AsyncRandomAccessFile.open(p, "rw", native);
    assert.equal(await af.tryLock({ shared: true }), null);
    const waiting = af.lock();
    assert.equal(await pending(waiting), true);
    worker.postMessage("release");
    assert.equal(await next(), "released");
    await waiting;
    assert.equal(await af.readIntAt(0), 4242);
    await af.close();
    assert.equal(await exited, 0);
  },
);
