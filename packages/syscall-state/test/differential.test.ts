import { execFileSync } from "node:child_process";
import { fstatSync, ftruncateSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { firstOpen, op } from "./differential/ops";
import {
  apply,
  canFifo,
  contents,
  describeOutcome,
  expectedNode,
  fdOf,
  places,
  world,
} from "./differential/worlds";

// Random sequences of calls, run against both backends on twin files: every result (value, -errno or
// thrown code) and every resulting byte must agree, but for the differences the contract names (node has
// no locks and no allocate). Reproduce a failure with the seed fast-check prints:
//   RAFKIT_DIFF_SEED=<seed> RAFKIT_DIFF_RUNS=<n> pnpm vitest run test/differential.test.ts
const SEED = Number(process.env["RAFKIT_DIFF_SEED"] ?? 20261130);
const RUNS = Number(process.env["RAFKIT_DIFF_RUNS"] ?? 300);

// The calls are made at random in differential/ops.ts, and run on each backend in differential/worlds.ts.
let run = 0;

if (!isNativeAvailable() || !canFifo) {
  console.warn("native backend or mkfifo unavailable here: the differential test is skipped");
}

describe.skipIf(!isNativeAvailable() || !canFifo).each(places)(
  "differential on %s: native vs node",
  (_, make) => {
    test("random call sequences on twin files give the same results and bytes", async () => {
      const where = make();
      const { root } = where;
      mkdirSync(where.emptyDir);
      execFileSync("mkfifo", [where.fifo]);
      await fc.assert(
        fc.asyncProperty(
          firstOpen,
          fc.array(op, { maxLength: 30, size: "medium" }),
          async (first, rest) => {
            const ops = [first, ...rest];
            const base = join(root, `run-${run++}`);
            mkdirSync(base);
            const native = world(nativeBackend(), where, join(base, "native"));
            const node = world(nodeBackend(), where, join(base, "node"));
            const both = [native, node];
            const trace: string[] = [];
            try {
              for (const op of ops) {
                const open = op.kind !== "open" && fdOf(native, op.slot).open;
                const [n, nBuffer] = await apply(native, op);
                const [j, jBuffer] = await apply(node, op);
                trace.push(
                  `${JSON.stringify(op)} -> native ${describeOutcome(n)}, node ${describeOutcome(j)}`,
                );
                const expected = expectedNode(op, n, open);
                // The contract besides agreement: every result is a safe integer (no bigint, no rounding).
                const unsafe = [n, j].some(
                  (r) => typeof r === "number" && !Number.isSafeInteger(r),
                );
                if (
                  unsafe ||
                  j !== expected ||
                  (op.kind.startsWith("pread") && nBuffer !== jBuffer)
                ) {
                  throw new Error(`backends differ:\n${trace.join("\n")}`);
                }
                if (op.kind === "allocate" && n === 0) {
                  // fallocate(mode 0) grows the file to the range's end; node's twin gets that by hand.
                  const fd = fdOf(node, op.slot).fd;
                  const end = op.position + op.length;
                  if (fstatSync(fd).size < end) ftruncateSync(fd, end);
                }
              }
              for (const name of readdirSync(native.dir)) {
                const mine = contents(join(native.dir, name));
                const theirs = contents(join(node.dir, name));
                if (mine !== theirs)
                  throw new Error(`'${name}' differs after:\n${trace.join("\n")}`);
              }
              expect(readdirSync(node.dir).sort()).toEqual(readdirSync(native.dir).sort());
            } finally {
              for (const w of both) for (const e of w.entries) if (e.open) w.backend.close(e.fd);
              rmSync(base, { recursive: true, force: true });
            }
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: false },
      );
    }, 120_000);
  },
);
