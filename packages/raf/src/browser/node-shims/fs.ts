// `node:fs` in a browser, for the thread lock registry only: its scope object, and no file identities (OPFS
// descriptors are not OS descriptors, so the registry compares nothing and never reports a same-thread holder).
/** The registry's scope object. */
const fs: object = {};
export default fs;

/** Throws: there is no `fstat` in a browser (the caller treats that as "identity unknown"). */
export function fstatSync(): never {
  throw new Error("fstat is not available in a browser");
}
