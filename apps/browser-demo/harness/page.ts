// The Chromium test page: runs the worker conformance run, the main-thread cases and the two-worker lock,
// then reports everything to the runner on `window.rafkitResults`. `window.rafkit` serves the two-page lock.
import * as rafkit from "@rafkit/raf";
import { asyncCases } from "./async-cases";
import { type CaseResult, eq, runCases } from "./check";

type Reply = { ok: boolean; held?: boolean; length?: number; error?: string };

/** A lock worker, and a way to send it a command and await its reply. */
function lockWorker(): { send(message: object): Promise<Reply>; worker: Worker } {
  const worker = new Worker("./lock.worker.js", { type: "module" });
  const queue: ((r: Reply) => void)[] = [];
  worker.onmessage = ({ data }) => queue.shift()?.(data as Reply);
  return {
    worker,
    send: (message) =>
      new Promise((resolve) => {
        queue.push(resolve);
        worker.postMessage(message);
      }),
  };
}

const lockCases: Record<string, () => unknown> = {
  "a lock contended between two workers: tryWebLock null, then webLock waits for the release":
    async () => {
      const path = `locks/workers-${Date.now()}.bin`;
      const a = lockWorker();
      const b = lockWorker();
      eq((await a.send({ op: "open", path })).ok, true);
      eq((await b.send({ op: "open", path })).ok, true);
      eq((await a.send({ op: "lock" })).held, true, "a holds");
      eq((await b.send({ op: "tryLock" })).held, false, "b's tryWebLock is null");
      let granted = false;
      const waiting = b.send({ op: "lock" }).then((r) => (granted = r.held === true));
      await new Promise((r) => setTimeout(r, 100));
      eq(granted, false, "b waits while a holds");
      await a.send({ op: "write" });
      await a.send({ op: "release" });
      await waiting;
      eq(granted, true, "b is granted after a's release");
      eq((await b.send({ op: "write" })).length, 8, "b sees a's flushed write, then adds its own");
      await a.send({ op: "close" });
      await b.send({ op: "close" });
      a.worker.terminate();
      b.worker.terminate();
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
