import { type Bytes, hasLoneSurrogate, keyId } from "./bytes";
import type { KeyDirectory } from "./key-directory";
import { HEADER_SIZE, isRecordOf } from "./record";
import type { StoreState } from "./store-state";
import { copyOut, type ValueCache } from "./value-cache";

/** Reads values: from the cache, else one positional read of the record, checked against its CRC. */
export class ValueReader {
  readonly #cache: ValueCache;
  #scratch = new Uint8Array(4096);

  constructor(cache: ValueCache) {
    this.#cache = cache;
  }

  /** The value of key directory entry `slot` (key `id`); throws `ERR_KV_CORRUPT` rather than return a damaged one. */
  read(state: StoreState, slot: number, id: string): Uint8Array {
    const keydir = state.keydir;
    const size = keydir.recordSize(slot);
    const handle = keydir.cache(slot);
    if (this.#cache.has(handle)) {
      return this.#cache.copyOut(handle, size - HEADER_SIZE - id.length);
    }
    const fileId = keydir.file(slot);
    const offset = keydir.offset(slot);
    const file = state.files.get(fileId)!;
    // A record past the file's end: the file lost bytes its hint covers (the store is read-only then).
    if (offset + size > file.size) throw state.foundCorrupt(id, fileId, offset, size, "");
    const buf = size <= this.#scratch.length ? this.#scratch : new Uint8Array(size);
    file.readAt(offset, buf, 0, size);
    if (!isRecordOf(buf, 0, size, id, keydir.timestamp(slot))) {
      throw state.foundCorrupt(id, fileId, offset, size, "");
    }
    const start = HEADER_SIZE + id.length;
    keydir.setCache(slot, this.#cache.add(buf, start, size));
    return copyOut(buf, start, size);
  }
}

/** The ids of live keys starting with `wanted`, in byte order. */
export function matchingIds(keydir: KeyDirectory, wanted: Bytes | undefined): string[] {
  if (typeof wanted === "string" && hasLoneSurrogate(wanted)) return []; // no stored key starts so
  const prefix = wanted === undefined ? "" : keyId(wanted);
  const ids: string[] = [];
  for (const id of keydir.ids()) if (id.startsWith(prefix)) ids.push(id);
  return ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
