import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { printedHeads, readmeExamples, runExample } from "../../../scripts/readme-examples.ts";

// The README's examples run as written (on the built package), each alone, print what their comments say
// and leave nothing behind.
const imports = { "@rafkit/bits": fileURLToPath(new URL("../dist/index.js", import.meta.url)) };
const examples = readmeExamples(new URL("../README.md", import.meta.url));

test.each(examples.map((example, k) => [k, example] as const))(
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
  expect(examples.flatMap((e) => printedHeads(e.code)).length).toBe(17);
});
