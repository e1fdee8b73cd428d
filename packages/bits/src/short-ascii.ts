const fcc = String.fromCharCode;

/**
 * `n` (at most 16) ASCII bytes at `b[o]` as a string. A call with a fixed argument count is cheaper than
 * `fromCharCode.apply` on an array or any native decoder for strings this short (BENCHMARKS.md). The
 * caller has checked the range and that `n <= 16`; the `!`s only answer `noUncheckedIndexedAccess`.
 * @internal
 */
// biome-ignore format: one call per length, one line each
export function shortAscii(b: Uint8Array, o: number, n: number): string {
  switch (n) {
    case 1: return fcc(b[o]!);
    case 2: return fcc(b[o]!, b[o + 1]!);
    case 3: return fcc(b[o]!, b[o + 1]!, b[o + 2]!);
    case 4: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
    case 5: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!);
    case 6: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!);
    case 7: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!);
    case 8: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!);
    case 9: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!);
    case 10: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!);
    case 11: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!, b[o + 10]!);
    case 12: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!, b[o + 10]!, b[o + 11]!);
    case 13: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!, b[o + 10]!, b[o + 11]!, b[o + 12]!);
    case 14: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!, b[o + 10]!, b[o + 11]!, b[o + 12]!, b[o + 13]!);
    case 15: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!, b[o + 10]!, b[o + 11]!, b[o + 12]!, b[o + 13]!, b[o + 14]!);
    case 16: return fcc(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!, b[o + 8]!, b[o + 9]!, b[o + 10]!, b[o + 11]!, b[o + 12]!, b[o + 13]!, b[o + 14]!, b[o + 15]!);
    default: return "";
  }
}
