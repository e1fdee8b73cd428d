import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  adaptSystemCall,
  errnoOf,
  getBackend,
  isNativeAvailable,
  nativeLibc,
  nodeBackend,
  SystemCallError,
  systemCallError,
} from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";

const dir = mkdtempSync(join(tmpdir(), "rafkit-smoke-esm-"));
try {
  // koffi ships a binary for these: the native backend must load here.
  if (
    ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"].includes(
      `${process.platform}-${process.arch}`,
    )
  )
    assert.equal(isNativeAvailable(), true, "the native backend loads");
  const backends = [nodeBackend()];
  if (isNativeAvailable()) backends.push(getBackend("native"));
  for (const backend of backends) {
    const path = join(dir, `${backend.name}.bin`);
    const missing = backend.open(join(dir, "missing"), "r");
    assert.equal(missing, -errnoOf("ENOENT"));
    const error = systemCallError(missing, "open", join(dir, "missing"));
    assert.ok(error instanceof SystemCallError);
    assert.equal(error.code, "ENOENT");
    const fd = backend.open(path, "rw");
    assert.ok(fd >= 0);
    const data = new Uint8Array([1, 2, 3, 4]);
    const at = 5 * 1024 ** 3;
    assert.equal(backend.pwriteFully(fd, data, 0, 4, at), 4);
    assert.equal(backend.size(fd), at + 4);
    const out = new Uint8Array(4);
    assert.equal(await backend.preadFullyAsync(fd, out, 0, 4, at), 4);
    assert.deepEqual([...out], [1, 2, 3, 4]);
    const faulty = faultBackend(backend, [{ call: "pread", errno: "EINTR", times: 2 }]);
    assert.equal(faulty.pread(fd, out, 0, 4, at), 4);
    assert.equal(faulty.calls.pread, 3);
    assert.equal(backend.close(fd), 0);
    // A zero-length read is still a system call: a closed fd is EBADF on every backend.
    assert.equal(backend.pread(fd, out, 0, 0, 0), -errnoOf("EBADF"));
    assert.equal(await backend.preadAsync(fd, out, 0, 0, 0), -errnoOf("EBADF"));
  }
  if (isNativeAvailable()) {
    const libc = nativeLibc();
    const fcntl = adaptSystemCall(libc.fcntl, "errno");
    assert.equal(fcntl(-1, libc.layout.F_GETFD, 0), -errnoOf("EBADF"));
  }
  console.log(`esm ok (native ${isNativeAvailable() ? "available" : "unavailable"})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
