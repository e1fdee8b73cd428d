import { OutOfRangeError, type ViewCodec } from "@rafkit/bits";

/**
 * `long` as a `number` at byte `i` of the window. The codec's `RangeError` names the window's offset, which
 * means nothing to a caller (it read "at offset 0" for a long at file position 100); this one names the value.
 * The index is always inside the window, so the codec throws for an unsafe value only.
 * @internal
 */
export function getSafeLong(c: ViewCodec, d: DataView, i: number): number {
  try {
    return c.getSafeInt64(d, i);
  } catch {
    throw new OutOfRangeError(
      `The long ${c.getBigInt64(d, i)} is not a safe integer: read it with readLong`,
    );
  }
}
