export {
  type FaultBackend,
  type FaultCall,
  type FaultCallInfo,
  type FaultRule,
  faultBackend,
} from "./testing/fault-backend";
