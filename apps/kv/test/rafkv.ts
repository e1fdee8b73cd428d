import { PassThrough, Readable } from "node:stream";
import { runCli } from "../src/cli-main";

/** Runs the CLI in this process with `stdin` as its input; its exit code and what it wrote. */
export async function rafkv(args: string[], stdin: Uint8Array = new Uint8Array()) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on("data", (d: Buffer) => out.push(d));
  stderr.on("data", (d: Buffer) => err.push(d));
  const io = {
    stdout,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: Readable.from([Buffer.from(stdin)]),
  };
  const code = await runCli(args, io);
  return {
    code,
    stdout: Buffer.concat(out),
    out: Buffer.concat(out).toString(),
    err: Buffer.concat(err).toString(),
  };
}
