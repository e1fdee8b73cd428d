export {
  type CrashBaseline,
  type CrashOp,
  type CrashState,
  type CrashStateOptions,
  countCrashStates,
  crashStatesOf,
  type TearSize,
} from "./testing/crash-model";
export {
  type CrashRecorder,
  crashRecorder,
  type RecordingDirectoryOps,
} from "./testing/crash-recorder";
export {
  type FaultBackend,
  type FaultCall,
  type FaultCallInfo,
  type FaultRule,
  faultBackend,
} from "./testing/fault-backend";
