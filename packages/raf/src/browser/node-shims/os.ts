// `node:os` as raf's browser build sees it: `constants.errno` is syscall-state's browser table (Linux numbers).
import { errnoOf } from "@rafkit/syscall-state/browser";

const errno = new Proxy({} as Record<string, number>, {
  get: (_, name) => (typeof name === "string" ? errnoOf(name) : undefined),
});

/** `os.constants` in a browser: its `errno` table only. */
export const constants = { errno };
