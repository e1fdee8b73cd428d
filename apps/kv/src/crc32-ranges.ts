// The CRC-32 of any range of a buffer from its prefix CRCs (`crc32Prefixes`), in a few hundred steps whatever
// the range's length: the search for the next valid record after damage checks a candidate at nearly every byte,
// and a candidate may claim a record of hundreds of kilobytes (a value of 16-bit samples decodes as such a header
// every four bytes). It rests on CRC-32 being linear: crc(A‖B) = crc(A)·x^(8|B|) ⊕ crc(B), mod the polynomial.

/** The reflected CRC-32 polynomial (IEEE 802.3, zlib's). */
const POLY = 0xedb88320;

/** `a·b mod POLY`, both in the reflected bit order (the top bit is x^0). */
function multiply(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** `x^(2^k) mod POLY` for k = 0…63: squares, so that x^n takes one product per set bit of n. */
const POWERS: readonly number[] = (() => {
  const powers = [0x40000000]; // x^1
  for (let k = 1; k < 64; k++) powers.push(multiply(powers[k - 1]!, powers[k - 1]!));
  return powers;
})();

/** `x^(8·bytes) mod POLY`: what a CRC is multiplied by when `bytes` more bytes follow. */
function shiftFor(bytes: number): number {
  let power = 0x80000000; // x^0
  for (let k = 3, n = bytes; n > 0; k++, n = Math.floor(n / 2)) {
    if (n % 2 === 1) power = multiply(POWERS[k]!, power);
  }
  return power;
}

/** The last shift asked for: a search meets one record length again and again (the same header repeated). */
let lastLength = -1;
let lastShift = 0;

/**
 * The CRC-32 of `bytes[start, end)` from `prefixes`, where `prefixes[k]` is the CRC-32 of `bytes[0, k)` (as
 * `crc32Prefixes` writes them).
 */
export function crc32OfRange(prefixes: Int32Array, start: number, end: number): number {
  const length = end - start;
  if (length !== lastLength) {
    lastLength = length;
    lastShift = shiftFor(length);
  }
  return (prefixes[end]! ^ multiply(lastShift, prefixes[start]! >>> 0)) >>> 0;
}
