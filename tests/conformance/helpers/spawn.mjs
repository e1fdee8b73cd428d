// Runs a helper script of this suite in a second process of the same runtime, talking over stdin/stdout lines.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The argv that runs `script` on the current runtime (Deno needs `run` and its permissions). */
export function runtimeArgs(script) {
  const file = fileURLToPath(script);
  return typeof globalThis.Deno !== "undefined"
    ? ["run", "--allow-all", "--no-lock", "--quiet", file]
    : [file];
}

/** A child running `script` with `args`; `next()` resolves with its next stdout line, `send(line)` writes one. */
export function child(script, args = []) {
  const proc = spawn(process.execPath, [...runtimeArgs(script), ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines = [];
  const waiters = [];
  let buffered = "";
  let stderr = "";
  proc.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const push = (line) => {
    const w = waiters.shift();
    if (w) w.resolve(line);
    else lines.push(line);
  };
  proc.stdout.on("data", (d) => {
    buffered += String(d);
    let i = buffered.indexOf("\n");
    while (i >= 0) {
      push(buffered.slice(0, i));
      buffered = buffered.slice(i + 1);
      i = buffered.indexOf("\n");
    }
  });
  const exited = new Promise((resolve) => proc.on("close", (code) => resolve(code)));
  exited.then(() => {
    for (const w of waiters.splice(0))
      w.reject(new Error(`child exited before answering; stderr: ${stderr}`));
  });
  return {
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift())
        : new Promise((resolve, reject) => waiters.push({ resolve, reject })),
    send: (line) => proc.stdin.write(`${line}\n`),
    exited,
    stderr: () => stderr,
  };
}
