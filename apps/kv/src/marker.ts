import * as fs from "node:fs";
import { BigEndian } from "@rafkit/bits";
import { crc32 } from "./crc32";
import { readWholeFile, writeFileAtomic } from "./data-file";
import { KvError } from "./errors";
import { inDir, MARKER_FILE } from "./file-names";

/**
 * The compaction marker `MERGED`: `"RKVM"(4) firstLiveId(8) crc32(4)`. Writing it (atomically: temp file, fsync,
 * rename, directory fsync) is the commit point of a compaction: from then on every data file numbered below
 * `firstLiveId` is obsolete, whether or not it has been deleted yet.
 */
const MAGIC = 0x524b564d;

/** The first live data file id, 0 when there is no marker. Throws `ERR_KV_CORRUPT` for a damaged marker. */
export function readMarker(dir: string): number {
  const path = inDir(dir, MARKER_FILE);
  if (!fs.existsSync(path)) return 0;
  const bytes = readWholeFile(path);
  if (
    bytes.length !== 16 ||
    BigEndian.getInt32(bytes, 0) !== MAGIC ||
    BigEndian.getUint32(bytes, 12) !== crc32(bytes, 0, 12)
  ) {
    throw new KvError("ERR_KV_CORRUPT", `compaction marker ${path} is damaged`, path);
  }
  return BigEndian.getSafeInt64(bytes, 4);
}

/** Commits a compaction: data files numbered below `firstLiveId` become obsolete. */
export function writeMarker(dir: string, firstLiveId: number): void {
  const bytes = new Uint8Array(16);
  BigEndian.setInt32(bytes, 0, MAGIC);
  BigEndian.setSafeInt64(bytes, 4, firstLiveId);
  BigEndian.setUint32(bytes, 12, crc32(bytes, 0, 12));
  writeFileAtomic(dir, inDir(dir, MARKER_FILE), bytes);
}
