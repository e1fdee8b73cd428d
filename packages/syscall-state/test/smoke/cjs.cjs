const assert = require("node:assert/strict");
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const {
  adaptSystemCall,
  errnoOf,
  getBackend,
  isNativeAvailable,
  nativeLibc,
} = require("@rafkit/syscall-state");
const { faultBackend } = require("@rafkit/syscall-state/testing");

const dir = mkdtempSync(join(tmpdir(), "rafkit-smoke-cjs-"));
try {
  // koffi ships a binary for these: the native backend must load here (it did not, once, under a `#` in the path).
  if (
    ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"].includes(
      `${process.platform}-${process.arch}`,
    )
  )
    assert.equal(isNativeAvailable(), true, "the native backend loads");
  const backend = getBackend();
  const fd = backend.open(join(dir, "f.bin"), "rw");
  assert.ok(fd >= 0, `open failed: ${fd}`);
  const faulty = faultBackend(backend, [{ call: "pwrite", shortTransfer: 1 }]);
  assert.equal(faulty.pwriteFully(fd, new Uint8Array([7, 8, 9]), 0, 3, 0), 3);
  assert.equal(faulty.calls.pwrite, 3);
  assert.equal(backend.size(fd), 3);
  assert.equal(backend.lock(fd, { shared: false, wait: false, position: 0, length: 0 }) <= 0, true);
  assert.equal(backend.close(fd), 0);
  assert.equal(backend.close(fd), -errnoOf("EBADF"));
  assert.equal(backend.pread(fd, new Uint8Array(1), 0, 0, 0), -errnoOf("EBADF"));
  if (isNativeAvailable()) {
    const libc = nativeLibc();
    assert.equal(adaptSystemCall(libc.close, "errno")(-1), -errnoOf("EBADF"));
  }
  console.log(`cjs ok (${backend.name} backend)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
