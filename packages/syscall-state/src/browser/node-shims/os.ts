// `node:os` as the browser build sees it: only `constants.errno`, Linux's numbers (see errno-table.ts).
import { BROWSER_ERRNO } from "../errno-table";

const errno: Record<string, number> = {};
for (const [name, [value]] of Object.entries(BROWSER_ERRNO)) errno[name] = value;

/** `os.constants` in a browser: its `errno` table only. */
export const constants = { errno };
