import type { Backend } from "./backend";
import { isNativeAvailable, nativeBackend } from "./native-backend";
import { nodeBackend } from "./node-backend";
import { nodeError } from "./node-error";

/** Which backend {@link getBackend} returns. */
export type BackendKind = "auto" | "native" | "node";

/**
 * `"native"` or `"node"` by name; `"auto"` (the default) picks native where it loads, else node.
 * The environment variable `RAFKIT_BACKEND=node|native` overrides `"auto"` (only `"auto"`), e.g. to run
 * a whole test suite on the node backend. Throws a `TypeError` (`ERR_INVALID_ARG_VALUE`) for other values.
 */
export function getBackend(kind: BackendKind = "auto"): Backend {
  let chosen: string = kind;
  if (chosen === "auto") {
    const env = backendFromEnvironment();
    if (env !== undefined && env !== "") chosen = env;
  }
  switch (chosen) {
    case "native":
      return nativeBackend();
    case "node":
      return nodeBackend();
    case "auto":
      return isNativeAvailable() ? nativeBackend() : nodeBackend();
    default: {
      throw nodeError(
        TypeError,
        "ERR_INVALID_ARG_VALUE",
        `Unknown backend '${chosen}'${kind === "auto" ? " (from RAFKIT_BACKEND)" : ""}; valid values are auto, native, node`,
      );
    }
  }
}

/** `RAFKIT_BACKEND`, or undefined where reading it is not allowed (Deno without `--allow-env`): then "auto". */
function backendFromEnvironment(): string | undefined {
  try {
    return process.env["RAFKIT_BACKEND"];
  } catch {
    return undefined;
  }
}
