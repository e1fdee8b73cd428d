/** Renders rows as columns separated by two spaces, each left- or right-aligned. */
export function renderColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ("left" | "right")[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => {
        const w = widths[i] ?? 0;
        return align[i] === "right" ? c.padStart(w) : c.padEnd(w);
      })
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
