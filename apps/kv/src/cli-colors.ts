import type { Colors as Picocolors } from "picocolors/types";

/** The colours the CLI prints with. */
export type Colors = Pick<Picocolors, "green" | "red" | "yellow">;

const PLAIN: Colors = { green: String, red: String, yellow: String };

/**
 * Colours for one output stream: on for a terminal, unless NO_COLOR; FORCE_COLOR turns them on anywhere.
 * Plain where the environment may not be read (Deno without `--allow-env`): picocolors reads it as it loads, so it
 * loads only when colours are on and the environment has answered.
 */
export async function colorsFor(stream: { isTTY?: boolean }): Promise<Colors> {
  try {
    // Real reads: Deno answers `in` with false where it refuses a read (NotCapable).
    const env = process.env;
    const force = env.FORCE_COLOR !== undefined;
    if (!force && (env.NO_COLOR !== undefined || stream.isTTY !== true)) return PLAIN;
    void env.TERM; // what picocolors reads as it loads
    return (await import("picocolors")).createColors(true);
  } catch {
    return PLAIN;
  }
}
