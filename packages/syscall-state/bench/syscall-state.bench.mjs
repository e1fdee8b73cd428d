// Suites for @rafkit/syscall-state: the JDK's CaptureStateUtilBench cases, and one small pread through each
// backend. The call under test is `fcntl(fd, F_GETFD)`: it succeeds on an open fd and fails with EBADF on
// -1, both after about the same work in the kernel, so success and failure differ only by errno handling.
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineSuite } from "@rafkit/bench";
import {
  adaptSystemCall,
  adaptSystemCallExplicit,
  CaptureState,
  isNativeAvailable,
  nativeBackend,
  nativeLibc,
  nodeBackend,
} from "@rafkit/syscall-state";

/** An fd no process has open: valid for `node:fs` (a non-negative int32), so the failure comes from the kernel. */
const CLOSED_FD = 2 ** 31 - 1;
const nativeUnavailable = () =>
  isNativeAvailable() ? undefined : "the native (koffi) backend does not load on this platform";
/** A temporary file of `size` bytes, open read-only; `dispose` closes and deletes it. */
function tempFile(size) {
  const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-syscall-"));
  const path = join(dir, "data.bin");
  writeFileSync(path, new Uint8Array(size).fill(7));
  const fd = openSync(path, "r");
  return {
    fd,
    dispose() {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
function captureState() {
  const file = tempFile(16);
  // Bound lazily so the node-only benchmark also runs where koffi does not load.
  const native = isNativeAvailable()
    ? (() => {
        const libc = nativeLibc();
        const raw = libc.fcntl;
        return {
          F_GETFD: libc.layout.F_GETFD,
          raw: libc.fcntl,
          tl: adaptSystemCall(raw, "errno"),
          explicit: adaptSystemCallExplicit(raw, "errno"),
        };
      })()
    : undefined;
  return { file, fd: file.fd, native: native };
}
/**
 * `CaptureStateUtilBench` (JDK-8347408): a system call through the adapter with the cached per-thread slot
 * (`tl*`), through the "explicit" adapter with a fresh `CaptureState` per call (`explicit*`), with no adapter
 * (`raw*`: koffi's function itself, errno left unread), and Node's idiomatic failure path: an `fs` call that
 * throws, caught (`nodeThrowFail`: `fs.fstatSync` on a closed fd, EBADF from the kernel as well).
 */
export const CaptureStateUtil = defineSuite({
  name: "CaptureStateUtil",
  description: "fcntl(fd, F_GETFD) on a valid fd (Success) and on -1 (Fail, EBADF)",
  state: captureState,
  teardown: { trial: (s) => s.file.dispose() },
  options: { unit: "ns" },
  benchmarks: {
    explicitSuccess: {
      run: (_bh, s) => s.native.explicit(new CaptureState(), s.fd, s.native.F_GETFD, 0),
      unavailable: nativeUnavailable,
    },
    explicitFail: {
      run: (_bh, s) => s.native.explicit(new CaptureState(), -1, s.native.F_GETFD, 0),
      unavailable: nativeUnavailable,
    },
    tlSuccess: {
      run: (_bh, s) => s.native.tl(s.fd, s.native.F_GETFD, 0),
      unavailable: nativeUnavailable,
    },
    tlFail: {
      run: (_bh, s) => s.native.tl(-1, s.native.F_GETFD, 0),
      unavailable: nativeUnavailable,
    },
    rawSuccess: {
      run: (_bh, s) => s.native.raw(s.fd, s.native.F_GETFD, 0),
      unavailable: nativeUnavailable,
    },
    rawFail: {
      run: (_bh, s) => s.native.raw(-1, s.native.F_GETFD, 0),
      unavailable: nativeUnavailable,
    },
    nodeThrowFail(_bh) {
      try {
        return fstatSync(CLOSED_FD);
      } catch (error) {
        return error.errno;
      }
    },
  },
});
/** A 4-byte `pread` at offset 0 through each syscall-state backend: result or `-errno`, never a throw. */
export const BackendPread = defineSuite({
  name: "BackendPread",
  description: "backend.pread(fd, buf, 0, 4, 0) of a cached 4 KiB file",
  state: () => ({
    file: tempFile(4096),
    buf: new Uint8Array(4),
    native: isNativeAvailable() ? nativeBackend() : undefined,
    node: nodeBackend(),
  }),
  teardown: { trial: (s) => s.file.dispose() },
  options: { unit: "ns" },
  benchmarks: {
    native: {
      run: (_bh, s) => s.native.pread(s.file.fd, s.buf, 0, 4, 0),
      unavailable: nativeUnavailable,
    },
    node: (_bh, s) => s.node.pread(s.file.fd, s.buf, 0, 4, 0),
  },
});
/** The syscall-state suites in run order. */
export default [CaptureStateUtil, BackendPread];
