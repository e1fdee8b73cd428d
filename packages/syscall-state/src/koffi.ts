import { createRequire } from "node:module";
import type * as Koffi from "koffi";

/** The koffi module's type. */
export type KoffiModule = typeof Koffi;

let loaded: KoffiModule | undefined;
let failure: Error | undefined;

/**
 * Loads koffi on first use (never at import time, so `nodeBackend()` works where koffi's prebuilt binary
 * is missing). Throws the same error on every later call once loading failed.
 */
export function loadKoffi(): KoffiModule {
  if (loaded !== undefined) return loaded;
  if (failure !== undefined) throw failure;
  try {
    const load = createRequire(import.meta.url);
    loaded = load("koffi") as KoffiModule;
    return loaded;
  } catch (cause) {
    failure = new Error(
      `koffi could not be loaded on ${process.platform}-${process.arch}: ${(cause as Error).message}`,
      { cause },
    );
    throw failure;
  }
}
