import { shareClassIdentity } from "@rafkit/bits";
/** Stable error codes of rafkv. */
export type KvErrorCode =
  /** Another process (or this one) holds the store's lock. */
  | "ERR_KV_LOCKED"
  /** A data, hint or marker file failed its CRC or structure check. */
  | "ERR_KV_CORRUPT"
  /** A write on a store opened read-only (by request, or because corruption was found). */
  | "ERR_KV_READ_ONLY"
  /** The store was closed. */
  | "ERR_KV_CLOSED"
  /** The directory does not exist (and `create` was false), is not a directory, or (read-only opens) holds no store. */
  | "ERR_KV_NO_STORE"
  /** A key or value of the wrong type or size. */
  | "ERR_KV_INVALID_ARG"
  /** A read-only open kept racing a writer (without OS locks) whose compactions changed the files it listed. */
  | "ERR_KV_BUSY";

/** Every error rafkv throws itself carries a stable {@link KvErrorCode} in `code`. */
export class KvError extends Error {
  static {
    shareClassIdentity(this, "rafkv.KvError");
  }
  /** The stable error code. */
  readonly code: KvErrorCode;
  /** The store directory or file the error is about, when known. */
  readonly path?: string;

  constructor(code: KvErrorCode, message: string, path?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "KvError";
    this.code = code;
    if (path !== undefined) this.path = path;
  }
}

/** A lock conflict, naming the holder's pid when the store recorded it. */
export class KvLockedError extends KvError {
  static {
    shareClassIdentity(this, "rafkv.KvLockedError");
  }
  /** The pid of the process holding the write lock, when known. */
  readonly holderPid?: number;

  constructor(message: string, path: string, holderPid?: number, options?: ErrorOptions) {
    super("ERR_KV_LOCKED", message, path, options);
    this.name = "KvLockedError";
    if (holderPid !== undefined) this.holderPid = holderPid;
  }
}
