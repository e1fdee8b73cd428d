export {
  type AdaptedSystemCall,
  adaptSystemCall,
  adaptSystemCallExplicit,
  CaptureState,
  type CaptureStateName,
  type ExplicitSystemCall,
  type FailureConvention,
  lastErrno,
  type NativeFunction,
} from "./adapter";
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
export { allocateDirect, type DirectBuffer } from "./direct-buffer";
export { describeErrno, errnoName, errnoOf } from "./errno";
export { SystemCallError, systemCallError } from "./errors";
export { fileIdentity } from "./file-identity";
export { type BackendKind, getBackend } from "./get-backend";
export { type NativeLibc, NativeUnavailableError, nativeLibc } from "./libc";
export { isNativeAvailable, nativeBackend } from "./native-backend";
export { nodeBackend } from "./node-backend";
export { type OneShotTransfers, oneShotTransfers } from "./one-shot";
export type { PlatformLayout } from "./platform/layout";
export { syncDirectory } from "./sync-directory";
