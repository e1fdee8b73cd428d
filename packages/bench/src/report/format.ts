/**
 * Formats a score with three decimals, as JMH does; a value under 0.001 keeps three significant digits
 * (`2.26e-4`) where JMH would print `≈ 10⁻⁴`.
 */
export function formatScore(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && abs < 0.001) return value.toExponential(2);
  return value.toFixed(3);
}

/** Pads text to a width, left- or right-aligned. */
export function pad(text: string, width: number, align: "left" | "right"): string {
  return align === "left" ? text.padEnd(width) : text.padStart(width);
}

/**
 * Text from a result file, safe for a terminal: control characters (C0, DEL, C1) as `\xNN` escapes, so that a
 * name in a file cannot move the cursor, clear the screen or restyle the rest of the output.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Renders rows as columns separated by two spaces (or by `gaps[i]` before column i); cells made printable. */
export function renderColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ("left" | "right")[],
  gaps: readonly (string | undefined)[] = [],
): string {
  const shown = rows.map((r) => r.map(printable));
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? "" : (gaps[i] ?? "  ")) + pad(c, widths[i]!, align[i] ?? "right"))
      .join("")
      .trimEnd();
  return [line(header.map(printable)), ...shown.map(line)].join("\n");
}

/** Parameter names in first-seen order across records. */
export function paramNames(records: readonly { params?: Record<string, string> }[]): string[] {
  const names: string[] = [];
  for (const r of records)
    for (const n of Object.keys(r.params ?? {})) if (!names.includes(n)) names.push(n);
  return names;
}
