// Can a buffered write skip its bound check by letting DataView's own range check find the full window?
// Runs one shape per process (V8's feedback is per process): `node bound-as-range-check.mjs trap|branch [slack]`.
// Prints ns per writeInt over 8 KiB windows, before and after windows start to fill. See BENCHMARKS.md.

const CAPACITY = 8192;
const WRITES_PER_LOOP = 1024; // 4 KiB: a loop without a reset fills the window every second time
const LOOPS = 20_000;

// Node 24 deoptimises an in-bounds set that ends at a view's last byte (BENCHMARKS.md), as the window's last
// writeInt does when the view ends with the window. Slack 2 ends the view 2 bytes later: a writeInt at the
// window's end still fails (it needs 4), and none inside the window ends at the view's last byte.
const slack = Number(process.argv[3] ?? 0);
if (slack !== 0 && slack !== 2) throw new Error(`slack must be 0 or 2, not ${process.argv[3]}`);
const memory = new ArrayBuffer(CAPACITY + 8);
/** Ends where the window does (or 2 bytes later): a set past its end throws RangeError. */
const windowView = new DataView(memory, 0, CAPACITY + slack);
/** Runs past the window, as rafkit's view does. */
const view = new DataView(memory);
const file = { cursor: 0, writeEnd: CAPACITY, flushes: 0 };

/** Stands for the flush and the write at the start of the emptied window. */
function flushThenWrite(v) {
  file.flushes++;
  view.setInt32(0, v);
  file.cursor = 4;
}

/** The bound as DataView's range check: no branch of ours on the fast path. */
function writeIntTrap(v) {
  const i = file.cursor;
  try {
    windowView.setInt32(i, v);
  } catch {
    flushThenWrite(v);
    return;
  }
  file.cursor = i + 4;
}

/** The bound as a branch, as the buffered floor and rafkit have it. */
function writeIntBranch(v) {
  const i = file.cursor;
  if (i + 4 > file.writeEnd) {
    flushThenWrite(v);
    return;
  }
  view.setInt32(i, v);
  file.cursor = i + 4;
}

const shape = process.argv[2] ?? "trap";
if (shape !== "trap" && shape !== "branch")
  throw new Error(`shape must be trap or branch, not ${shape}`);
const writeInt = shape === "trap" ? writeIntTrap : writeIntBranch;

function writeLoop() {
  for (let k = 0; k < WRITES_PER_LOOP; k++) writeInt(k);
}

function measure(label, fromStart) {
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < LOOPS; r++) {
    if (fromStart) file.cursor = 0;
    writeLoop();
  }
  const ns = Number(process.hrtime.bigint() - t0) / LOOPS / WRITES_PER_LOOP;
  console.log(`${shape}\t${label}\t${ns.toFixed(3)} ns/write\t${file.flushes} flushes so far`);
}

measure("window never fills (warmup)", true);
measure("window never fills", true);
measure("window fills every 2nd loop (1st)", false);
measure("window fills every 2nd loop (2nd)", false);
measure("window never fills, after", true);
