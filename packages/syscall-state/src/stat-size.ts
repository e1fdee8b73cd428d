import type { Stats } from "node:fs";
import { errnoOf } from "./errno";

const EISDIR = -errnoOf("EISDIR");
const EOVERFLOW = -errnoOf("EOVERFLOW");

/**
 * `size` from an `fstat`: a directory has no byte size (its `st_size` is file-system bookkeeping), so
 * `-EISDIR`; a size beyond `Number.MAX_SAFE_INTEGER` is `-EOVERFLOW`, as the adapter answers for a
 * 64-bit `lseek` result (`Stats.size` is a double there, already rounded). @internal
 */
export function sizeFromStats(stats: Stats): number {
  if (stats.isDirectory()) return EISDIR;
  return stats.size > Number.MAX_SAFE_INTEGER ? EOVERFLOW : stats.size;
}
