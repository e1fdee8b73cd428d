import type { Colors as Picocolors } from "picocolors/types";

/** The colours the CLI prints with. */
export type Colors = Pick<Picocolors, "green" | "red" | "yellow">;

const PLAIN: Colors = { green: String, red: String, yellow: String };

/**
 * Colours for one output stream: on for a terminal, unless NO_COLOR; FORCE_COLOR turns them on anywhere.
 * Plain where the environment may not be read (Deno without `--allow-env`): picocolors reads it as it loads, so
 * it loads only when colours are on.
 */
export async function colorsFor(stream: { isTTY?: boolean }): Promise<Colors> {
  let on: boolean;
  try {
    const env = process.env;
    on = "FORCE_COLOR" in env || (!("NO_COLOR" in env) && stream.isTTY === true);
  } catch {
    return PLAIN;
  }
  return on ? (await import("picocolors")).createColors(true) : PLAIN;
}
