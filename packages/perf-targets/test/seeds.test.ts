import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildResult, resolveOptions, toJmhJson } from "@rafkit/bench";
import { afterAll, describe, expect, it } from "vitest";
import { seedSummary, seedTables, seedTitle } from "../src/seed-tables";

const dir = mkdtempSync(join(tmpdir(), "rafkit-perf-seeds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (
  benchmark: string,
  params: Record<string, string | number>,
  score: number,
  unit = "us",
) =>
  buildResult(benchmark, params, resolveOptions({ unit: unit as "us" }), [[score, score, score]]);

const results = [
  at("RandomAccessFileBenchmark.readInt", { kiloBytes: 1, impl: "jdk17" }, 400),
  at("RandomAccessFileBenchmark.readInt", { kiloBytes: 1, impl: "jdk25" }, 100),
  at("RandomAccessFileBenchmark.readInt", { kiloBytes: 1, impl: "rafkit" }, 2),
  at("RandomAccessFileBenchmark.readInt", { kiloBytes: 1, impl: "floor" }, 1), // not a column
  at("RandomAccessFileReadBenchmark.readLong", { kiloBytes: 5, impl: "jdk17Emulated" }, 50),
  at("RandomAccessFileReadBenchmark.readLong", { kiloBytes: 5, impl: "rafkit" }, 5),
  at("CaptureStateUtilBench.tlSuccess", { impl: "rafkit" }, 100, "ns"),
  at("CaptureStateUtilBench.tlFail", { impl: "rafkit" }, 110, "ns"),
  at("CaptureStateUtilBench.explicitSuccess", { impl: "rafkit" }, 300, "ns"),
  at("CaptureStateUtilBench.tlSuccess", { impl: "jdk25" }, 2, "ns"),
  at("CaptureStateUtilBench.tlFail", { impl: "jdk25" }, 24, "ns"),
  at("CaptureStateUtilBench.explicitSuccess", { impl: "jdk25" }, 23, "ns"),
];

describe("the seeds' tables", () => {
  it("put JDK 17, JDK 25 and rafkit side by side per benchmark, with rafkit's speed-up over each", () => {
    const text = seedTables(results);
    expect(text).toContain(
      "| RandomAccessFileBenchmark.readInt | 1 | 400.000 ± 0.000 | 100.000 ± 0.000 | 2.000 ± 0.000 | 200.00x | 50.00x |",
    );
    expect(text).toContain(
      "| Benchmark | (kiloBytes) | JDK 17 (us/op) | JDK 25 (us/op) | rafkit (us/op) |",
    );
    expect(text).not.toContain("floor");
    // Without a JDK 21+, the emulated "after" takes JDK 25's column.
    expect(text).toContain(
      "| RandomAccessFileReadBenchmark.readLong | 5 | 50.000 ± 0.000 | 5.000 ± 0.000 | 10.00x |",
    );
    expect(text).toContain("JDK 17 emulating bulk I/O (us/op)");
  });

  it('name the "after" JDK by the version its forks report (a JDK 21+ where 25 is missing), and the emulation', () => {
    const after = results
      .filter((r) => r.params?.impl === "jdk25")
      .map((r) => ({ ...r, jdkVersion: "21.0.5" }));
    const on21 = [...results.filter((r) => r.params?.impl !== "jdk25"), ...after];
    expect(seedTables(on21)).toContain(
      "| Benchmark | (kiloBytes) | JDK 17 (us/op) | JDK 21 (us/op) | rafkit (us/op) |",
    );
    expect(seedSummary(on21)).toContain(
      "| Benchmark | rafkit faster than JDK 17 | rafkit faster than JDK 21 |",
    );
    expect(seedTitle(on21, "RandomAccessFileBenchmark")).toBe("JDK 17, JDK 21, rafkit");
    expect(seedTitle(results, "CaptureStateUtilBench")).toBe("JDK 25 and rafkit");
    const emulated = results.filter((r) => r.params?.impl !== "jdk25");
    expect(seedTitle(emulated, "RandomAccessFileReadBenchmark")).toBe(
      "JDK 17 emulating bulk I/O and rafkit",
    );
    expect(seedSummary(emulated)).toContain("rafkit faster than JDK 17 emulating bulk I/O |");
  });

  it('take as the "after" JDK 25, else the newest JDK 21+, else none (then the emulation runs)', async () => {
    // The bench code is plain JavaScript: loaded by URL, typed here.
    const jdksUrl = new URL("../../raf/bench/jdks.mjs", import.meta.url).href;
    type Jdk = { major: number; home: string; java: string; version: string };
    const { afterJdk } = (await import(jdksUrl)) as { afterJdk: (list: Jdk[]) => Jdk | undefined };
    const jdk = (major: number) => ({
      major,
      home: `/jdk${major}`,
      java: `/jdk${major}/bin/java`,
      version: `${major}`,
    });
    expect(afterJdk([jdk(26), jdk(25), jdk(17)])?.major).toBe(25);
    expect(afterJdk([jdk(17), jdk(22), jdk(21)])?.major).toBe(22);
    expect(afterJdk([jdk(17), jdk(11)])).toBeUndefined();
  });

  it("sum up the root README's ratios: rafkit's speed-up ranges per seed shape, and both runtimes' capture ratios", () => {
    const text = seedSummary([
      ...results,
      at("RandomAccessFileBenchmark.readInt", { kiloBytes: 5, impl: "jdk17" }, 1000),
      at("RandomAccessFileBenchmark.readInt", { kiloBytes: 5, impl: "jdk25" }, 300),
      at("RandomAccessFileBenchmark.readInt", { kiloBytes: 5, impl: "rafkit" }, 10),
    ]);
    // 1 KiB: 400/2 = 200x, 100/2 = 50x; 5 KiB: 1000/10 = 100x, 300/10 = 30x.
    expect(text).toContain(
      "| `RandomAccessFileBenchmark`, reads (seek(0) + 1 or 5 KiB of primitives) | 100x to 200x | 30.0x to 50.0x |",
    );
    expect(text).toContain("| `RandomAccessFileBenchmark`, writes incl. flush | - | - |");
    // The emulated "after" stands in for JDK 25; no JDK 17 run of that shape.
    expect(text).toContain(
      "| `RandomAccessFileReadBenchmark` (open, read all, close) | - | 10.0x to 10.0x |",
    );
    expect(text).toContain("| `explicitSuccess / tlSuccess` | 11.50x | 3.00x |");
  });

  it("give both runtimes' explicit/tl and fail/success ratios side by side", () => {
    const text = seedTables(results);
    expect(text).toContain("| explicitSuccess / tlSuccess | 11.50x | 3.00x |");
    expect(text).toContain("| tlFail / tlSuccess | 12.00x | 1.10x |");
    expect(text).toContain("| explicitFail / tlFail | - | - |");
    expect(seedTables([])).toContain("No CaptureStateUtilBench results.");
  });

  it("perf-seeds --from a missing or bad file says so in one line, exit 1 (it was a stack trace)", async () => {
    const cli = fileURLToPath(new URL("../dist/seeds.js", import.meta.url));
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "[{}]");
    for (const file of [join(dir, "missing.json"), bad]) {
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
        (resolve) =>
          execFile(process.execPath, [cli, "--from", file, "--out", dir], (error, _out, err) =>
            resolve({ code: error ? (error.code as number) : 0, stderr: err }),
          ),
      );
      expect(code).toBe(1);
      expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(/^perf-seeds: .*\.json: /)]);
    }
  });

  it("perf-seeds --from redraws the tables, one SVG per benchmark with a bar per impl", async () => {
    const file = join(dir, "saved.json");
    writeFileSync(file, toJmhJson(results));
    const cli = fileURLToPath(new URL("../dist/seeds.js", import.meta.url));
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [cli, "--from", file, "--out", dir], (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    expect(stdout).toContain("### RandomAccessFileBenchmark (JDK-8298639)");
    const svg = readFileSync(join(dir, "RandomAccessFileBenchmark.svg"), "utf8");
    expect(svg).toMatch(/<svg[\s\S]*jdk17[\s\S]*jdk25[\s\S]*rafkit[\s\S]*<\/svg>/);
    expect(readFileSync(join(dir, "seeds.md"), "utf8")).toBe(seedTables(results));
  });
});
