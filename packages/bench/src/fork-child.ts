// Entry point of a forked benchmark process: receives one trial job over IPC, runs it, reports each
// iteration and the result back, then exits. Errors become an "error" message and exit code 1.

import type { ForkMessage, ForkRequest } from "./fork";
import { loadSuiteModule } from "./loader";
import { runTrial } from "./runner";

const send = (message: ForkMessage) =>
  new Promise<void>((done) => (process.send ? process.send(message, () => done()) : done()));

process.once("message", async (request: ForkRequest) => {
  try {
    const suites = await loadSuiteModule(request.module);
    const found = suites.find((s) => s.suite.name === request.suite);
    if (!found) throw new Error(`module ${request.module} has no suite ${request.suite}`);
    const result = await runTrial(
      {
        suite: found.suite,
        benchmark: request.benchmark,
        params: request.params,
        options: request.options,
      },
      (record) => send({ type: "iteration", record }),
      false, // the parent times this fork, and kills it
    );
    await send({ type: "result", result });
    process.exit(0);
  } catch (error) {
    const e = error as Error;
    await send({ type: "error", message: e?.message ?? String(error), stack: e?.stack ?? "" });
    process.exit(1);
  }
});
