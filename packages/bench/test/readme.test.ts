import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { expect, test } from "vitest";
import { printedHeads, readmeExamples, runExample } from "../../../scripts/readme-examples.ts";

// The README's examples run as written (on the built package), each alone, print what their comments say
// and leave nothing behind. The suite example is examples/sum.bench.mjs, word for word, and the
// command line lists and runs it as the README shows.
const imports = { "@rafkit/bench": fileURLToPath(new URL("../dist/index.js", import.meta.url)) };
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const readme = new URL("../README.md", import.meta.url);
const examples = readmeExamples(readme);
const suiteExample = examples[0]!.code;

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
    expect(r.leftovers).toEqual([]);
  },
);

test("the README has its examples", () => {
  expect(examples.length).toBe(2);
  expect(examples.flatMap((e) => printedHeads(e.code)).length).toBe(2);
});

test("the suite example is examples/sum.bench.mjs, less its opening comment", () => {
  const file = readFileSync(new URL("../examples/sum.bench.mjs", import.meta.url), "utf8");
  expect(suiteExample).toBe(file.replace(/^(\/\/.*\n)+/, ""));
});

test("--list prints the suite example's benchmarks as the README shows", () => {
  const text = readFileSync(readme, "utf8");
  const listed = /--suite examples\/sum\.bench\.mjs --list\n```\n\n```\n(.*?)```/s.exec(text)?.[1];
  expect(listed).toBeDefined();
  const r = runExample(suiteExample, imports, (file) => [cli, "--suite", file, "--list"]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  // Colours are on where the terminal or CI asks for them (CI=true); the README shows the text.
  expect(stripVTControlCharacters(r.stdout)).toBe(listed);
  expect(r.leftovers).toEqual([]);
});

test("the suite example runs from the command line, forked, in short iterations", () => {
  const args = ["-f", "1", "-wi", "1", "-i", "2", "-w", "5ms", "-r", "5ms"];
  const r = runExample(suiteExample, imports, (file) => [cli, "--suite", file, ...args]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const rows = r.stdout.trimEnd().split("\n");
  expect(rows[0]).toMatch(/^Benchmark +\(size\) +Mode +Cnt +Score +Error +Units$/);
  expect(rows.slice(1).map((row) => row.split(/ +/).slice(0, 4))).toEqual(
    ["forLoop", "reduce", "forOf"].flatMap((name) => [
      [`Sum.${name}`, "100", "avgt", "2"],
      [`Sum.${name}`, "10000", "avgt", "2"],
    ]),
  );
  expect(r.leftovers).toEqual([]);
});
