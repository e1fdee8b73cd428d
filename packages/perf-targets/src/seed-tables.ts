import type { BenchmarkResult } from "@rafkit/bench";
import { nanosPerOp } from "./units";

const IMPL_LABEL: Record<string, string> = {
  jdk17: "JDK 17",
  jdk25: "JDK 25",
  jdk17Emulated: "JDK 17 emulating bulk I/O",
  rafkit: "rafkit",
};

/**
 * How the tables name `impl` in `results`: `jdk25` is the "after" JDK, 25 where installed, else the newest 21+ (its
 * real bulk I/O), named by the version its forks report.
 */
export function implLabel(impl: string, results: readonly BenchmarkResult[]): string {
  if (impl !== "jdk25") return IMPL_LABEL[impl] ?? impl;
  const version = results.find((r) => r.params?.impl === "jdk25")?.jdkVersion ?? "25";
  const major = /^(?:1\.)?(\d+)/.exec(version)?.[1] ?? "25";
  return `JDK ${major}`;
}

/** The "after" peer present in `results`: the real JDK (25, or 21+), else the emulation on JDK 17. */
export function afterImpl(results: readonly BenchmarkResult[]): "jdk25" | "jdk17Emulated" {
  return results.some((r) => r.params?.impl === "jdk25") ? "jdk25" : "jdk17Emulated";
}

/** The implementations of a seed's chart title, as the tables name them: `JDK 17, JDK 25, rafkit`. */
export function seedTitle(results: readonly BenchmarkResult[], suite: string): string {
  const mine = results.filter((r) => r.benchmark.startsWith(`${suite}.`));
  const labels = implsIn(mine).map((i) => implLabel(i, mine));
  return labels.length === 2 ? labels.join(" and ") : labels.join(", ");
}

const methodOf = (r: BenchmarkResult) => r.benchmark.slice(r.benchmark.lastIndexOf(".") + 1);
const score = (r: BenchmarkResult | undefined) =>
  r === undefined
    ? "-"
    : `${r.primaryMetric.score.toFixed(3)} ± ${Number.isNaN(r.primaryMetric.scoreError) ? "NaN" : r.primaryMetric.scoreError.toFixed(3)}`;
const ratio = (a: BenchmarkResult | undefined, b: BenchmarkResult | undefined) =>
  a === undefined || b === undefined
    ? "-"
    : `${(nanosPerOp(a.primaryMetric) / nanosPerOp(b.primaryMetric)).toFixed(2)}x`;

function markdown(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    line(header),
    line(header.map((_, i) => (i === 0 ? "---" : "---:"))),
    ...rows.map(line),
  ].join("\n");
}

/** The implementations present, in the order JDK 17, JDK 25 (or its emulation), rafkit. */
function implsIn(results: readonly BenchmarkResult[]): string[] {
  const present = new Set(results.map((r) => String(r.params?.impl)));
  return Object.keys(IMPL_LABEL).filter((i) => present.has(i));
}

/** One seed's table: a row per method and size, a column per implementation, then rafkit's speed-ups. */
function rafTable(results: readonly BenchmarkResult[], suite: string): string {
  const mine = results.filter((r) => r.benchmark.startsWith(`${suite}.`));
  if (mine.length === 0) return `No ${suite} results.\n`;
  const impls = implsIn(mine);
  const find = (method: string, kb: string, impl: string) =>
    mine.find(
      (r) => methodOf(r) === method && r.params?.kiloBytes === kb && r.params?.impl === impl,
    );
  const keys = [...new Set(mine.map((r) => `${methodOf(r)}\0${r.params?.kiloBytes}`))].sort();
  const jdks = impls.filter((i) => i !== "rafkit");
  const unit = mine[0]!.primaryMetric.scoreUnit;
  const rows = keys.map((k) => {
    const [method, kb] = k.split("\0") as [string, string];
    return [
      `${suite}.${method}`,
      kb,
      ...impls.map((i) => score(find(method, kb, i))),
      ...jdks.map((j) => ratio(find(method, kb, j), find(method, kb, "rafkit"))),
    ];
  });
  return `${markdown(
    [
      "Benchmark",
      "(kiloBytes)",
      ...impls.map((i) => `${implLabel(i, mine)} (${unit})`),
      ...jdks.map((j) => `${implLabel(j, mine)} / rafkit`),
    ],
    rows,
  )}\n`;
}

/** CaptureStateUtilBench: a row per method, a column per runtime, then both runtimes' ratios side by side. */
function captureTable(results: readonly BenchmarkResult[]): string {
  const mine = results.filter((r) => r.benchmark.startsWith("CaptureStateUtilBench."));
  if (mine.length === 0) return "No CaptureStateUtilBench results.\n";
  const impls = ["jdk25", "rafkit"].filter((i) => mine.some((r) => r.params?.impl === i));
  const find = (method: string, impl: string) =>
    mine.find((r) => methodOf(r) === method && r.params?.impl === impl);
  const methods = ["explicitFail", "explicitSuccess", "tlFail", "tlSuccess"];
  const scores = markdown(
    ["Benchmark", ...impls.map((i) => `${implLabel(i, mine)} (ns/op)`)],
    methods.map((m) => [`CaptureStateUtilBench.${m}`, ...impls.map((i) => score(find(m, i)))]),
  );
  const pairs: [string, string, string][] = [
    ["explicitSuccess / tlSuccess", "explicitSuccess", "tlSuccess"],
    ["explicitFail / tlFail", "explicitFail", "tlFail"],
    ["tlFail / tlSuccess", "tlFail", "tlSuccess"],
    ["explicitFail / explicitSuccess", "explicitFail", "explicitSuccess"],
  ];
  const ratios = markdown(
    ["Ratio", ...impls.map((i) => implLabel(i, mine))],
    pairs.map(([label, a, b]) => [label, ...impls.map((i) => ratio(find(a, i), find(b, i)))]),
  );
  return `${scores}\n\n${ratios}\n`;
}

/** The seeds' tables in markdown, each under its JDK issue. */
export function seedTables(results: readonly BenchmarkResult[]): string {
  return [
    "### RandomAccessFileBenchmark (JDK-8298639)\n",
    rafTable(results, "RandomAccessFileBenchmark"),
    "### RandomAccessFileReadBenchmark (JDK-8292937)\n",
    rafTable(results, "RandomAccessFileReadBenchmark"),
    "### CaptureStateUtilBench (JDK-8347408)\n",
    captureTable(results),
  ].join("\n");
}

/** The range of `values` as the root README prints it (`61x to 132x`), or `-` when empty. */
function range(values: readonly number[]): string {
  if (values.length === 0) return "-";
  const fmt = (x: number) => `${x >= 100 ? x.toFixed(0) : x.toFixed(x >= 10 ? 1 : 2)}x`;
  return `${fmt(Math.min(...values))} to ${fmt(Math.max(...values))}`;
}

/**
 * The root README's "How rafkit compares" tables: per seed shape (reads, writes, open-read-close), how many
 * times faster rafkit is than JDK 17 and JDK 25 over every method and size, then CaptureStateUtilBench's
 * ratios on both runtimes.
 */
export function seedSummary(results: readonly BenchmarkResult[]): string {
  const speedUps = (suite: string, prefix: string, jdk: string): number[] => {
    const mine = results.filter((r) => r.benchmark.startsWith(`${suite}.${prefix}`));
    return mine
      .filter((r) => r.params?.impl === "rafkit")
      .flatMap((r) => {
        const peer = mine.find(
          (p) =>
            p.benchmark === r.benchmark &&
            p.params?.kiloBytes === r.params?.kiloBytes &&
            (p.params?.impl === jdk || (jdk === "jdk25" && p.params?.impl === "jdk17Emulated")),
        );
        return peer ? [nanosPerOp(peer.primaryMetric) / nanosPerOp(r.primaryMetric)] : [];
      });
  };
  const rows: [string, string, string][] = [
    [
      "`RandomAccessFileBenchmark`, reads (seek(0) + 1 or 5 KiB of primitives)",
      "RandomAccessFileBenchmark",
      "read",
    ],
    ["`RandomAccessFileBenchmark`, writes incl. flush", "RandomAccessFileBenchmark", "write"],
    [
      "`RandomAccessFileReadBenchmark` (open, read all, close)",
      "RandomAccessFileReadBenchmark",
      "read",
    ],
  ];
  const raf = results.filter((r) => r.benchmark.startsWith("RandomAccessFile"));
  const after = implLabel(afterImpl(raf), raf);
  const speed = markdown(
    ["Benchmark", "rafkit faster than JDK 17", `rafkit faster than ${after}`],
    rows.map(([label, suite, prefix]) => [
      label,
      range(speedUps(suite, prefix, "jdk17")),
      range(speedUps(suite, prefix, "jdk25")),
    ]),
  );
  const capture = results.filter((r) => r.benchmark.startsWith("CaptureStateUtilBench."));
  const find = (method: string, impl: string) =>
    capture.find((r) => methodOf(r) === method && r.params?.impl === impl);
  const pairs: [string, string][] = [
    ["explicitSuccess", "tlSuccess"],
    ["explicitFail", "tlFail"],
    ["tlFail", "tlSuccess"],
  ];
  const ratios = markdown(
    ["`CaptureStateUtilBench` ratio", implLabel("jdk25", capture), "rafkit"],
    pairs.map(([a, b]) => [
      `\`${a} / ${b}\``,
      ratio(find(a, "jdk25"), find(b, "jdk25")),
      ratio(find(a, "rafkit"), find(b, "rafkit")),
    ]),
  );
  return `${speed}\n\n${ratios}\n`;
}
