// `node:util`'s errno maps as the browser build sees them, from errno-table.ts.
import { BROWSER_ERRNO } from "../errno-table";

const map = new Map<number, [string, string]>();
for (const [name, [value, description]] of Object.entries(BROWSER_ERRNO)) {
  // ENOTSUP and EOPNOTSUPP share 95: the first name wins, as libuv's map keeps ENOTSUP.
  if (!map.has(-value)) map.set(-value, [name, description]);
}

/** `util.getSystemErrorMap()` over the browser table. */
export function getSystemErrorMap(): Map<number, [string, string]> {
  return map;
}

/** `util.getSystemErrorName()` over the browser table. */
export function getSystemErrorName(result: number): string {
  return map.get(result)?.[0] ?? `Unknown system error ${result}`;
}
