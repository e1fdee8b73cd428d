import * as path from "node:path";
import { KvError } from "./errors";
import { INCOMPLETE_BACKUP_FILE, isDataFileName, LOCK_FILE, MARKER_FILE } from "./file-names";
import type { OpenOptions } from "./options";
import type { DirectoryOps, StoreDir } from "./store-dir";

/** Throws `ERR_KV_INVALID_ARG` unless `options` (of the call `what`) is an object: `null` is not "no options". */
export function checkOptionsObject(options: unknown, what: string): void {
  if (typeof options !== "object" || options === null) {
    const got = options === null ? "null" : typeof options;
    throw new KvError("ERR_KV_INVALID_ARG", `the options of ${what} must be an object, got ${got}`);
  }
}

/** The methods of a {@link DirectoryOps}, which `options.directory` must all have. */
const DIRECTORY_OPS = [
  "list",
  "stat",
  "makeDirectory",
  "realPath",
  "rename",
  "remove",
  "syncDirectory",
  "readFile",
  "writeFileSynced",
  "openData",
] as const;

/** Throws `ERR_KV_INVALID_ARG` unless `options` is an object whose `onProgress`, if given, is a function. */
export function checkProgressOptions(options: { onProgress?: unknown }, what: string): void {
  checkOptionsObject(options, what);
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    const got = options.onProgress === null ? "null" : typeof options.onProgress;
    throw new KvError("ERR_KV_INVALID_ARG", `onProgress of ${what} must be a function, got ${got}`);
  }
}

/** Throws `ERR_KV_INVALID_ARG` for options {@link OpenOptions} does not allow. */
export function checkOpenOptions(options: OpenOptions): void {
  checkOptionsObject(options, "open");
  if (options.sync !== undefined && !["always", "batch", "never"].includes(options.sync)) {
    throw new KvError("ERR_KV_INVALID_ARG", `sync must be "always", "batch" or "never"`);
  }
  // Not truthiness: `readOnly: "false"` opening read-only, or `repair: "no"` repairing, would be silent surprises.
  for (const name of ["readOnly", "create", "repair"] as const) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== "boolean") {
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `${name} must be a boolean, got ${value === null ? "null" : typeof value}`,
      );
    }
  }
  const { maxFileSize, cacheSize } = options;
  if (maxFileSize !== undefined && !(Number.isSafeInteger(maxFileSize) && maxFileSize > 0)) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `maxFileSize must be a positive integer (bytes), got ${String(maxFileSize)}`,
    );
  }
  if (
    cacheSize !== undefined &&
    !(typeof cacheSize === "number" && cacheSize >= 0 && cacheSize < Infinity)
  ) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `cacheSize must be a number of bytes, 0 or more, got ${String(cacheSize)}`,
    );
  }
  const ops: unknown = options.directory;
  if (
    ops !== undefined &&
    (typeof ops !== "object" ||
      ops === null ||
      !DIRECTORY_OPS.every((m) => typeof (ops as Record<string, unknown>)[m] === "function"))
  ) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `directory must be a DirectoryOps (${DIRECTORY_OPS.join(", ")}), got ${ops === null ? "null" : typeof ops}`,
    );
  }
  if (options.readOnly && options.repair) {
    throw new KvError("ERR_KV_INVALID_ARG", "repair needs a writable open (readOnly: false)");
  }
}

/** The real path of the store directory `dir`, made first when `create` allows (its parent must exist). */
export function ensureDirectory(ops: DirectoryOps, dir: string, create: boolean): string {
  const abs = path.resolve(dir);
  let stat = ops.stat(abs);
  if (stat === undefined && create) {
    try {
      ops.makeDirectory(abs);
    } catch (error) {
      // A missing parent, or a file in the way, is no store; EACCES, EROFS and the like are the OS's errors.
      const code = (error as { code?: unknown }).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      throw new KvError(
        "ERR_KV_NO_STORE",
        `cannot create store directory ${abs}: ${(error as Error).message}`,
        abs,
        { cause: error },
      );
    }
    ops.syncDirectory(path.dirname(abs));
    stat = ops.stat(abs);
  }
  if (stat === undefined)
    throw new KvError("ERR_KV_NO_STORE", `no such store directory: ${abs}`, abs);
  if (!stat.isDirectory) throw new KvError("ERR_KV_NO_STORE", `not a directory: ${abs}`, abs);
  return ops.realPath(abs);
}

/**
 * Throws `ERR_KV_NO_STORE` when `dir` holds no store and none may be made there: nothing is created where a store
 * was expected, nor among another program's files (a LevelDB directory, say); a read-only open would otherwise
 * leave a LOCK file in any directory it is pointed at.
 */
export function checkIsStore(dir: StoreDir, create: boolean): void {
  // One listing: another process's first open of the same new store, making its first data file meanwhile, is in
  // it or not. Two listings could see no data file, then that one as another program's file.
  const names = dir.list();
  // Its data files look like a store's, with keys missing: refused whatever else is there.
  if (names.includes(INCOMPLETE_BACKUP_FILE)) {
    throw new KvError(
      "ERR_KV_NO_STORE",
      `${dir.path} is an incomplete backup (the backup into it failed or was cut short): back up again into an empty directory`,
      dir.path,
    );
  }
  // A writable open makes a data file at once, and compaction leaves a marker.
  if (names.includes(MARKER_FILE) || names.some(isDataFileName)) return;
  // A LOCK and temp files are what an interrupted first open leaves.
  const foreign = names.some((n) => n !== LOCK_FILE && !n.endsWith(".tmp"));
  const why = !create
    ? "is not a rafkv store (it has no data files)"
    : foreign
      ? "is not empty and holds no rafkv store"
      : undefined;
  if (why !== undefined) throw new KvError("ERR_KV_NO_STORE", `${dir.path} ${why}`, dir.path);
}
