// A second process holding raf locks on command (one per stdin line), answering each with one stdout line:
//   lock <shared|exclusive> <position> <size|all>  -> "locked"      writeInt <position> <value> -> "written"
//   release                                        -> "released"    exit                        -> closes, exits
import { createInterface } from "node:readline";
import { RandomAccessFile } from "@rafkit/raf";

const file = new RandomAccessFile(process.argv.at(-1), "rw", { backend: "native" });
let held = null;
console.log("ready");
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, a, b, c] = line.split(" ");
  if (cmd === "lock") {
    const options = { shared: a === "shared", position: Number(b) };
    if (c !== "all") options.size = Number(c);
    held = file.lock(options);
    console.log("locked");
  } else if (cmd === "writeInt") {
    file.writeIntAt(Number(a), Number(b));
    console.log("written");
  } else if (cmd === "release") {
    held.release();
    console.log("released");
  } else if (cmd === "exit") {
    file.close();
    break;
  }
}
process.exit(0);
