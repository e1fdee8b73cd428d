/**
 * `@rafkit/syscall-state` in a browser: the same result-or-`-errno` contract over the Origin Private File
 * System (`opfsBackend`) and over `Blob`s (`blobBackend`), with no `node:` module and no koffi. Errno
 * numbers are Linux's, so errors read as Node's on Linux.
 *
 * @packageDocumentation
 */
export type {
  AbortSignalLike,
  Advice,
  AsyncBackend,
  Backend,
  BackendFeatures,
  FileMode,
  LockRequest,
  SyncBackend,
} from "./backend";
export {
  blobBackend,
  hasSyncAccessHandles,
  opfsBackend,
  registerBlob,
  withOpenDescriptor,
} from "./browser/backends";
export { type BackendKind, getBackend, isNativeAvailable } from "./browser/get-backend";
export { allocateDirect, type DirectBuffer } from "./direct-buffer";
export { describeErrno, errnoName, errnoOf } from "./errno";
export { SystemCallError, systemCallError } from "./errors";
export { fileIdentity } from "./file-identity";
export { type OneShotTransfers, oneShotTransfers } from "./one-shot";
export { AsyncOpenRequiredError } from "./opfs/primitives";
