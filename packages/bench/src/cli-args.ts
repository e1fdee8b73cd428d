import { BenchError } from "./errors";
import type { IterationSpec } from "./suite";

/** JMH's multi-letter short options, which commander cannot declare, mapped to our long names. */
const JMH_ALIASES: Record<string, string> = {
  "-wi": "--warmup-iterations",
  "-bm": "--mode",
  "-tu": "--unit",
  "-to": "--timeout",
};

/** Rewrites JMH-style `-wi 3` / `-tu ns` arguments into long options commander understands. */
export function rewriteJmhArgs(argv: readonly string[]): string[] {
  return argv.map((arg) => JMH_ALIASES[arg] ?? arg);
}

/**
 * Parses an iteration length: a time (`1s`, `200ms`, `500us`, `2` = seconds, as JMH's `-r`) or an invocation
 * count (`1000ops` or `1000x`).
 */
export function parseIterationLength(text: string): Pick<IterationSpec, "time" | "invocations"> {
  const count = /^(\d+)(ops|x)$/.exec(text.trim());
  if (count) {
    const invocations = Number(count[1]);
    if (invocations >= 1) return { invocations };
  }
  const time = parseMillis(text);
  if (time !== undefined) return { time };
  throw new BenchError(
    "ERR_BENCH_BAD_OPTION",
    `bad iteration length ${JSON.stringify(text)}: use a time like 1s, 200ms, 500us, or a count like 1000ops`,
  );
}

/** Parses a time option (`-to 30s`, `10min`; a bare number is seconds, as JMH's) into milliseconds. */
export function parseTimeOption(text: string, what: string): number {
  const time = parseMillis(text);
  if (time !== undefined) return time;
  throw new BenchError(
    "ERR_BENCH_BAD_OPTION",
    `bad ${what} ${JSON.stringify(text)}: use a time like 30s, 500ms or 10min`,
  );
}

function parseMillis(text: string): number | undefined {
  const time = /^(\d+(?:\.\d+)?)(ns|us|ms|s|m|min)?$/.exec(text.trim());
  if (!time) return undefined;
  const factor =
    { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, m: 60_000, min: 60_000 }[time[2] ?? "s"] ?? 1000;
  const ms = Number(time[1]) * factor;
  return ms > 0 ? ms : undefined;
}

/** Parses a non-negative integer option. */
export function parseCount(text: string, what: string, min = 0): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min) {
    throw new BenchError(
      "ERR_BENCH_BAD_OPTION",
      `${what} must be an integer >= ${min}, got ${JSON.stringify(text)}`,
    );
  }
  return n;
}

/** Parses `-p name=v1,v2` into the param name and its values. */
export function parseParamOption(text: string): [string, string[]] {
  const match = /^([A-Za-z_$][\w$]*)=(.+)$/.exec(text);
  const values = match?.[2]?.split(",").map((v) => v.trim());
  if (!match || !values || values.some((v) => v === "")) {
    throw new BenchError(
      "ERR_BENCH_BAD_PARAM",
      `malformed param ${JSON.stringify(text)}: expected name=value[,value...], e.g. -p kiloBytes=1,5`,
    );
  }
  return [match[1]!, values];
}

/**
 * Parses every `-p` of a command line: a name given twice runs the values of both, as JMH's `-p` does
 * (`-p n=1 -p n=2` is `-p n=1,2`), each value once.
 */
export function parseParamOptions(texts: readonly string[]): Record<string, string[]> {
  const params = new Map<string, string[]>();
  for (const [name, values] of texts.map(parseParamOption)) {
    params.set(name, [...new Set([...(params.get(name) ?? []), ...values])]);
  }
  return Object.fromEntries(params);
}

/** Splits `FILE#benchmark` into the file and an optional benchmark selector. */
export function parseResultRef(text: string): { file: string; benchmark?: string } {
  const hash = text.lastIndexOf("#");
  if (hash <= 0) return { file: text };
  return { file: text.slice(0, hash), benchmark: text.slice(hash + 1) };
}
