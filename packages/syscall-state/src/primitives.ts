import type { AsyncBackend, SyncBackend } from "./backend";
import type { DirectBuffer } from "./direct-buffer";
import type { fileIdentity } from "./file-identity";

/**
 * One system call per method, with no retry and no loop: what a backend is built from. The shared
 * loops in `compose-backend.ts` add the EINTR retries and the full-transfer loops on top, so a fault
 * injected here (see `./testing`) travels through exactly the code real errors do. The methods are
 * plain functions: the composed backend calls them without a `this`.
 */
export type Primitives = Omit<SyncBackend, "preadFully" | "pwriteFully"> &
  Omit<AsyncBackend, "preadFullyAsync" | "pwriteFullyAsync"> & {
    /** A direct buffer and its `pread`/`pwrite` ({@link allocateDirect}), where the platform has them. */
    readonly allocateDirect?: (capacity: number) => DirectBuffer | undefined;
    /** The open file's identity ({@link fileIdentity}), where fstat of the descriptor cannot tell it. */
    readonly identity?: (fd: number) => string | undefined;
  };

/** Where a composed backend keeps its primitives; a registered symbol, so every copy of this package agrees. */
export const PRIMITIVES: unique symbol = Symbol.for("@rafkit/syscall-state/primitives");
