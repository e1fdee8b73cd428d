import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadSuiteModule } from "@rafkit/bench";
import { afterAll, describe, expect, it } from "vitest";
import { workspaceRoots } from "../src/baseline";
import { compareTargets } from "../src/before-after";
import { runBeforeAfter } from "../src/before-after-run";
import { BASE_PREFIX, baseSuiteModule, buildOverlay } from "../src/overlay";
import { currentRoots, suiteModules } from "../src/suites";
import { benchmarkFn, recorder } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "rafkit-overlay-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A base checkout holding only @rafkit/bits: a copy of this repository's build (its package.json and
 * dist/), so its real path differs from the current one's.
 */
function baseWithBits(): string {
  const base = join(dir, "base");
  if (!existsSync(base)) {
    const bits = currentRoots()["@rafkit/bits"];
    mkdirSync(join(base, "packages", "bits"), { recursive: true });
    for (const f of ["package.json", "dist"])
      cpSync(join(bits, f), join(base, "packages", "bits", f), { recursive: true });
  }
  return base;
}

/** What Node's ESM resolution gives `specifiers` from a module in `from` (in a fresh process). */
function resolveFrom(from: string, specifiers: readonly string[]): (string | null)[] {
  const code = `console.log(JSON.stringify(${JSON.stringify(specifiers)}.map((s) => { try { return import.meta.resolve(s); } catch { return null; } })))`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", code], {
      cwd: from,
      encoding: "utf8",
    }),
  ) as (string | null)[];
}

const url = (path: string) => pathToFileURL(realpathSync(path)).href;

describe("buildOverlay", () => {
  it("resolves a copied suite's measured packages to the base build, its other imports to the current one", () => {
    const base = workspaceRoots(baseWithBits());
    expect(base["@rafkit/bits"]).toBe(join(dir, "base", "packages", "bits"));
    const overlay = buildOverlay(base, currentRoots(), join(dir, "overlay-resolve"));
    try {
      const [suite] = suiteModules("bits", overlay.roots);
      expect(suite).toBe(join(dir, "overlay-resolve", "bits", "bench", "bits.bench.mjs"));
      const [bits, bench] = resolveFrom(dirname(suite!), ["@rafkit/bits", "@rafkit/bench"]);
      expect(bits).toBe(`${url(base["@rafkit/bits"])}/dist/index.js`);
      expect(bench).toBe(
        `${url(join(currentRoots()["@rafkit/bits"], "node_modules", "@rafkit", "bench"))}/dist/index.js`,
      );
      // raf's suites: random-access-file from the current install; @rafkit/raf is not in this base, so it
      // does not resolve at all (rather than falling back to the current one).
      const [raf, rafBits, npm] = resolveFrom(join(dirname(suite!), "..", "..", "raf", "bench"), [
        "@rafkit/raf",
        "@rafkit/bits",
        "random-access-file",
      ]);
      expect(raf).toBeNull();
      expect(rafBits).toBe(`${url(base["@rafkit/bits"])}/dist/index.js`);
      expect(npm).toMatch(/random-access-file/);
      // kv has no suites: its root stays the base's.
      expect(overlay.roots["@rafkit/kv-example"]).toBe(base["@rafkit/kv-example"]);
    } finally {
      overlay.dispose();
    }
    expect(existsSync(join(dir, "overlay-resolve"))).toBe(false);
  });

  it("exports the base's suites renamed base$<name>, computing what the current suites compute", async () => {
    const overlay = buildOverlay(workspaceRoots(baseWithBits()), currentRoots());
    try {
      const [copied] = suiteModules("bits", overlay.roots);
      const based = await loadSuiteModule(baseSuiteModule(copied!));
      const current = await loadSuiteModule(suiteModules("bits")[0]!);
      expect(based.map((l) => l.suite.name)).toEqual(
        current.map((l) => `${BASE_PREFIX}${l.suite.name}`),
      );
      // A fork finds its suite in the module it was loaded from: the wrapper, in the overlay.
      expect(based[0]!.module).toBe(pathToFileURL(baseSuiteModule(copied!)).href);
      const get = (suites: typeof based) =>
        suites.find((l) => l.suite.name.endsWith("BitsGet"))!.suite;
      const values = async (suite: ReturnType<typeof get>) => {
        const params = { type: "Int32" };
        const state = await suite.state?.(params as never);
        const bh = recorder();
        benchmarkFn(suite, "bigEndian")(bh, state, params as never);
        return bh.values;
      };
      expect(await values(get(based))).toEqual(await values(get(current)));
    } finally {
      overlay.dispose();
    }
  });
});

describe("runBeforeAfter", () => {
  it("runs both builds' benchmarks of a group in one run and splits the results by build", async () => {
    const overlay = buildOverlay(workspaceRoots(baseWithBits()), currentRoots());
    const printed: string[] = [];
    try {
      // In this process, one iteration of one op each: only the plumbing is checked, never a timing.
      const run = await runBeforeAfter(["bits"], {
        base: overlay.roots,
        current: currentRoots(),
        forks: 0,
        iterations: {
          warmupIterations: 0,
          iterations: 1,
          warmupTime: "1ops",
          measurementTime: "1ops",
        },
        listener: {},
        print: (t) => void printed.push(t),
      });
      expect(run.failed).toBe(false);
      const ids = (rs: typeof run.before.results) =>
        rs.map((r) => `${r.benchmark}${JSON.stringify(r.params ?? {})}`).sort();
      expect(run.before.results.length).toBeGreaterThan(20);
      expect(ids(run.before.results)).toEqual(ids(run.after.results));
      expect(run.before.results.some((r) => r.benchmark.startsWith(BASE_PREFIX))).toBe(false);
      // The run's tables name the base's suites apart, each right after the current one.
      expect(printed.join("")).toMatch(/BitsGet\.bigEndian[\s\S]*base\$BitsGet\.bigEndian/);
      const rows = compareTargets(run.before.results, run.after.results, ["bits"]);
      expect(rows.filter((r) => r.movement === "n/a").map((r) => r.note)).toEqual([]);
      expect(rows.every((r) => r.noise === "no ci")).toBe(true); // one iteration: no CI
    } finally {
      overlay.dispose();
    }
  });

  it("gives every benchmark of a group the reason when the current suite does not load on the base", async () => {
    // A base with no @rafkit/bits at all: the copied suite's import fails.
    const empty = join(dir, "empty-base");
    mkdirSync(empty, { recursive: true });
    const overlay = buildOverlay(workspaceRoots(empty), currentRoots());
    try {
      const run = await runBeforeAfter(["bits"], {
        base: overlay.roots,
        current: currentRoots(),
        forks: 0,
        iterations: {
          warmupIterations: 0,
          iterations: 1,
          warmupTime: "1ops",
          measurementTime: "1ops",
        },
        listener: {},
        print: () => {},
      });
      expect(run.before.results).toEqual([]);
      expect(run.after.results.length).toBeGreaterThan(20);
      const rows = compareTargets(run.before.results, run.after.results, ["bits"], {
        beforeNotes: run.before.notes,
      });
      expect(rows.every((r) => r.movement === "n/a")).toBe(true);
      expect(rows[0]!.note).toMatch(
        /^before: BitsGet\.bigEndian: the current suite does not load on the base: cannot load suite module .*@rafkit\/bits/,
      );
    } finally {
      overlay.dispose();
    }
  });
});
