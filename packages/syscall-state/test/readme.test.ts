import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { printedHeads, readmeExamples, runExample } from "../../../scripts/readme-examples.ts";

// The README's examples run as written (on the built package), each alone, print what their comments and
// output blocks say and leave nothing behind (the quick start's 5 GiB sparse file included). They call
// libc by name and print Linux's answers: the README says so.
const imports = {
  "@rafkit/syscall-state": fileURLToPath(new URL("../dist/index.js", import.meta.url)),
  "@rafkit/syscall-state/testing": fileURLToPath(new URL("../dist/testing.js", import.meta.url)),
  koffi: createRequire(import.meta.url).resolve("koffi"),
};
const examples = readmeExamples(new URL("../README.md", import.meta.url));
const linux = process.platform === "linux" && process.arch === "x64";

test.runIf(linux).each(examples.map((example, k) => [k, example] as const))(
  "README example %i",
  (_k, example) => {
    const r = runExample(example.code, imports);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const printed = r.stdout.split("\n");
    for (const head of printedHeads(example.code)) {
      expect(
        printed.some((line) => line.startsWith(head)),
        `${head} in ${r.stdout}`,
      ).toBe(true);
    }
    if (example.output !== undefined) expect(r.stdout).toBe(example.output);
    expect(r.leftovers).toEqual([]);
  },
);

test("the README has its examples", () => {
  expect(examples.length).toBe(4);
  expect(examples.filter((e) => e.output !== undefined).length).toBe(2);
});
