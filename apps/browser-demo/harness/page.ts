// The Chromium test page: runs the worker conformance run, the main-thread cases and the two-worker lock,
// then reports everything to the runner on `window.rafkitResults`. `window.rafkit` serves the two-page lock.
import * as rafkit from "@rafkit/raf";
import { asyncCases } from "./async-cases";
import { type CaseResult, eq, pendingOn, runCases } from "./check";

type Reply = {
  ok: boolean;
  granted?: boolean;
  held?: boolean;
  shared?: boolean;
  said?: string;
  length?: number;
  value?: number;
  error?: string;
};

/** A lock worker, and a way to send it a command and await its reply (a failed command throws). */
function lockWorker(): { send(message: object): Promise<Reply>; worker: Worker } {
  const worker = new Worker("./lock.worker.js", { type: "module" });
  const queue: ((r: Reply) => void)[] = [];
  worker.onmessage = ({ data }) => queue.shift()?.(data as Reply);
  return {
    worker,
    send: (message) =>
      new Promise<Reply>((resolve) => {
        queue.push(resolve);
        worker.postMessage(message);
      }).then((r) => {
        if (!r.ok) throw new Error(`${JSON.stringify(message)}: ${r.error}`);
        return r;
      }),
  };
}

/**
 * Two workers contending for one file's lock: `a` and `b` are each the async class's `lock`/`tryLock` or
 * the sync class's `lockAsync`/`tryLockAsync`.
 */
async function contended(kinds: readonly ["async" | "sync", "async" | "sync"]): Promise<void> {
  const path = `locks/workers-${kinds.join("-")}-${Date.now()}.bin`;
  const a = lockWorker();
  const b = lockWorker();
  try {
    await a.send({ op: "open", path, kind: kinds[0] });
    await b.send({ op: "open", path, kind: kinds[1] });
    eq((await a.send({ op: "lock" })).held, true, "a holds an exclusive lock");
    eq((await b.send({ op: "tryLock" })).granted, false, "b's exclusive tryLock is null");
    eq(
      (await b.send({ op: "tryLock", shared: true })).granted,
      false,
      "b's shared tryLock is null",
    );
    let granted = false;
    const waiting = b.send({ op: "lock" }).then((r) => (granted = r.held === true));
    await pendingOn(path);
    eq(granted, false, "b waits while a holds");
    await a.send({ op: "write" });
    eq((await a.send({ op: "release" })).held, false, "a's lock is no longer valid");
    await waiting;
    eq(granted, true, "b is granted after a's release");
    eq((await b.send({ op: "write" })).length, 8, "b sees a's flushed write, then adds its own");
    eq((await a.send({ op: "tryLock", shared: true })).granted, false, "a's tryLock is null now");
    await b.send({ op: "release" });

    const sharedA = await a.send({ op: "tryLock", shared: true });
    eq([sharedA.granted, sharedA.shared], [true, true], "a's shared tryLock after b's release");
    const sharedB = await b.send({ op: "lock", shared: true });
    eq([sharedB.granted, sharedB.shared], [true, true], "shared + shared: b's lock granted too");
    eq((await b.send({ op: "release" })).held, false);
    eq((await b.send({ op: "tryLock" })).granted, false, "b's exclusive tryLock under a's shared");
    await a.send({ op: "release" });

    eq((await b.send({ op: "tryLock" })).granted, true, "b's exclusive tryLock once both released");
    eq((await a.send({ op: "tryLock", shared: true })).granted, false);
    eq((await b.send({ op: "close" })).held, false, "closing b invalidated its lock");
    eq((await a.send({ op: "tryLock" })).granted, true, "closing b released it: a's tryLock");
    await a.send({ op: "close" });
  } finally {
    a.worker.terminate();
    b.worker.terminate();
  }
}

/**
 * Two workers taking turns at lock, read, increment, write, release on one int: each holder must read the
 * last holder's int, not the bytes its own window kept from its previous turn.
 */
async function counter(kinds: readonly ["async" | "sync", "async" | "sync"]): Promise<void> {
  const path = `locks/counter-${kinds.join("-")}-${Date.now()}.bin`;
  const a = lockWorker();
  const b = lockWorker();
  try {
    await a.send({ op: "open", path, kind: kinds[0] });
    await b.send({ op: "open", path, kind: kinds[1] });
    const values: (number | undefined)[] = [];
    for (const w of [a, b, a, b, a]) values.push((await w.send({ op: "bump" })).value);
    eq(values, [1, 2, 3, 4, 5], "each turn reads the last holder's int");
    await a.send({ op: "close" });
    await b.send({ op: "close" });
  } finally {
    a.worker.terminate();
    b.worker.terminate();
  }
}

const lockCases: Record<string, () => unknown> = {
  "a lock forgets the window's cached bytes: two workers take turns incrementing one int (sync class, async class, mixed)":
    async () => {
      await counter(["sync", "sync"]);
      await counter(["async", "async"]);
      await counter(["sync", "async"]);
    },
  "the async class's lock/tryLock contended between two workers (null under an exclusive holder, shared + shared, granted after release and after close)":
    () => contended(["async", "async"]),
  "the sync class's lockAsync/tryLockAsync contended between two workers": () =>
    contended(["sync", "sync"]),
  "the sync class's lockAsync against the async class's lock/tryLock in another worker": () =>
    contended(["sync", "async"]),
  "in a worker, the sync class's lock()/tryLock() throw SyncLockUnsupportedError naming lockAsync/tryLockAsync":
    async () => {
      const w = lockWorker();
      try {
        await w.send({ op: "open", path: `locks/sync-${Date.now()}.bin`, kind: "sync" });
        eq((await w.send({ op: "syncLock" })).said, "ok, ok");
        await w.send({ op: "close" });
      } finally {
        w.worker.terminate();
      }
    },
};

async function workerRun(): Promise<{ results: CaseResult[]; files: Record<string, ArrayBuffer> }> {
  const [javaData, javaLog] = await Promise.all([
    fetch("/fixtures/java.bin").then((r) => r.arrayBuffer()),
    fetch("/fixtures/java.log").then((r) => r.text()),
  ]);
  const worker = new Worker("./conformance.worker.js", { type: "module" });
  const done = new Promise<{ results: CaseResult[]; files: Record<string, ArrayBuffer> }>(
    (resolve, reject) => {
      worker.onmessage = ({ data }) => resolve(data);
      worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
    },
  );
  worker.postMessage({ javaData, javaLog }, [javaData]);
  const out = await done;
  worker.terminate();
  return out;
}

async function main(): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  try {
    const run = await workerRun();
    results.push(...run.results);
    for (const [name, bytes] of Object.entries(run.files)) {
      await fetch(`/upload/${name}`, { method: "POST", body: bytes });
    }
  } catch (error) {
    results.push({ name: "worker run", ok: false, error: String(error) });
  }
  results.push(...(await runCases("main async: ", asyncCases)));
  results.push(...(await runCases("main locks: ", lockCases)));
  return results;
}

Object.assign(window, { rafkit, rafkitResults: main() });
