import type { Backend } from "../backend";
import { opfsBackend } from "./backends";

/** Which backend the browser build's {@link getBackend} returns. */
export type BackendKind = "auto" | "native" | "node" | "opfs";

/**
 * The browser build's `getBackend`: `"auto"` and `"opfs"` are {@link opfsBackend}. `"native"` (koffi) and
 * `"node"` (`node:fs`) do not exist in a browser: a `TypeError` (`ERR_INVALID_ARG_VALUE`).
 */
export function getBackend(kind: BackendKind = "auto"): Backend {
  if (kind === "auto" || kind === "opfs") return opfsBackend();
  const error = new TypeError(
    `The '${String(kind)}' backend is not available in a browser; valid values there are auto, opfs`,
  );
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_VALUE";
  throw error;
}

/** Always false in a browser: koffi cannot load there. */
export function isNativeAvailable(): boolean {
  return false;
}
