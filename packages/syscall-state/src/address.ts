import { loadKoffi } from "./koffi";

/**
 * Where `memory`'s bytes are, as a number for an `intptr_t` argument; `undefined` past 2**53 (no
 * address space of today's platforms reaches it). A `SharedArrayBuffer`'s bytes never move and the
 * buffer cannot be detached, so the address holds for as long as the buffer lives.
 */
export function addressOf(memory: SharedArrayBuffer): number | undefined {
  let address: unknown;
  try {
    address = loadKoffi().address(new Uint8Array(memory));
  } catch {
    // A koffi without `address` (or a runtime where it fails): the calls take typed arrays instead.
    return undefined;
  }
  return typeof address === "bigint" && address > 0n && address <= MAX_ADDRESS
    ? Number(address)
    : undefined;
}

const MAX_ADDRESS = BigInt(Number.MAX_SAFE_INTEGER);
