// Suites for @rafkit/syscall-state: the JDK's CaptureStateUtilBench cases, and one small pread through each
// backend. The call under test is `fcntl(fd, F_GETFD)`: it succeeds on an open fd and fails with EBADF on
// -1, both after about the same work in the kernel, so success and failure differ only by errno handling.
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineSuite, findJdks, iterationArg, javaCommand } from "@rafkit/bench";
import {
  adaptSystemCall,
  adaptSystemCallExplicit,
  allocateDirect,
  CaptureState,
  isNativeAvailable,
  nativeBackend,
  nativeLibc,
  nodeBackend,
  oneShotTransfers,
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
/** The JDK 25 launcher, found by the version in each JDK home's `release` file. */
const jdk25 = () => findJdks().find((j) => j.major === 25)?.java;
const JAVA = fileURLToPath(new URL("./java/CaptureStateUtilBench.java", import.meta.url));
const EXPORTS = ["--add-exports", "java.base/jdk.internal.foreign=ALL-UNNAMED"];

/** The JDK 25 fork for `impl: "jdk25"`: the same libc call through the FFM Linker and CaptureStateUtil. */
const onJdk25 = (benchmark) => ({
  command: ({ impl }, o) =>
    impl !== "jdk25"
      ? undefined
      : javaCommand(
          JAVA,
          [
            benchmark,
            String(nativeLibc().layout.F_GETFD),
            String(o.warmup.iterations),
            iterationArg(o.warmup, o.mode),
            String(o.measurement.iterations),
            iterationArg(o.measurement, o.mode),
          ],
          {
            java: jdk25(),
            javacArgs: EXPORTS,
            jvmArgs: [...EXPORTS, "--enable-native-access=ALL-UNNAMED"],
          },
        ),
});

const unavailable = ({ impl }) => {
  if (impl === "jdk25") {
    if (process.platform !== "linux") return "the JDK 25 side calls Linux's fcntl: Linux only";
    return jdk25()
      ? undefined
      : `no JDK 25 found (installed: ${
          findJdks()
            .map((j) => j.version)
            .join(", ") || "none"
        }): JDK 25 skipped`;
  }
  return nativeUnavailable();
};

/** One benchmark on both runtimes: `run` in Node (impl rafkit), the JDK 25 fork otherwise. */
const both = (name, run) => ({ run, external: onJdk25(name), unavailable });

/**
 * `CaptureStateUtilBench` (JDK-8347408) on `fcntl(fd, F_GETFD)`, on both runtimes (`impl`): through the
 * adapter with the cached per-thread slot (`tl*`: rafkit's `adaptSystemCall`, JDK 25's
 * `CaptureStateUtil.adaptSystemCall`), through the "explicit" path with a fresh capture state per call
 * (`explicit*`: a `CaptureState`, or a confined arena's segment), and with no adapter (`raw*`: koffi's
 * function itself, or the plain downcall handle; errno left unread).
 */
export const CaptureStateUtilBench = defineSuite({
  name: "CaptureStateUtilBench",
  description: "fcntl(fd, F_GETFD) on a valid fd (Success) and on -1 (Fail, EBADF)",
  params: { impl: ["rafkit", "jdk25"] },
  state: captureState,
  teardown: { trial: (s) => s.file.dispose() },
  options: { unit: "ns" },
  benchmarks: {
    explicitFail: both("explicitFail", (_bh, s) =>
      s.native.explicit(new CaptureState(), -1, s.native.F_GETFD, 0),
    ),
    explicitSuccess: both("explicitSuccess", (_bh, s) =>
      s.native.explicit(new CaptureState(), s.fd, s.native.F_GETFD, 0),
    ),
    tlFail: both("tlFail", (_bh, s) => s.native.tl(-1, s.native.F_GETFD, 0)),
    tlSuccess: both("tlSuccess", (_bh, s) => s.native.tl(s.fd, s.native.F_GETFD, 0)),
    rawFail: both("rawFail", (_bh, s) => s.native.raw(-1, s.native.F_GETFD, 0)),
    rawSuccess: both("rawSuccess", (_bh, s) => s.native.raw(s.fd, s.native.F_GETFD, 0)),
  },
});

/**
 * Node's idiomatic failure path, for scale: an `fs` call that throws, caught (`fs.fstatSync` on a closed
 * fd: EBADF from the kernel too).
 */
export const NodeErrno = defineSuite({
  name: "NodeErrno",
  description: "fs.fstatSync on a closed fd, thrown and caught",
  options: { unit: "ns" },
  benchmarks: {
    throwCatch() {
      try {
        return fstatSync(CLOSED_FD);
      } catch (error) {
        return error.errno;
      }
    },
  },
});

/**
 * A 4-byte `pread` at offset 0 through each syscall-state backend: result or `-errno`, never a throw.
 * `oneShot` is the native backend's call without its checks and EINTR retry (`oneShotTransfers`), into a
 * typed array; `direct` is the same call into a direct buffer (`allocateDirect`), which passes an address.
 */
export const BackendPread = defineSuite({
  name: "BackendPread",
  description: "backend.pread(fd, buf, 0, 4, 0) of a cached 4 KiB file",
  state: () => {
    const native = isNativeAvailable() ? nativeBackend() : undefined;
    return {
      file: tempFile(4096),
      buf: new Uint8Array(4),
      native,
      oneShot: native === undefined ? undefined : oneShotTransfers(native),
      direct: native === undefined ? undefined : allocateDirect(native, 4),
      node: nodeBackend(),
    };
  },
  teardown: { trial: (s) => s.file.dispose() },
  options: { unit: "ns" },
  benchmarks: {
    native: {
      run: (_bh, s) => s.native.pread(s.file.fd, s.buf, 0, 4, 0),
      unavailable: nativeUnavailable,
    },
    oneShot: {
      run: (_bh, s) => s.oneShot.pread(s.file.fd, s.buf, 0, 4, 0),
      unavailable: nativeUnavailable,
    },
    direct: {
      run: (_bh, s) => s.direct.pread(s.file.fd, 4, 0),
      unavailable: () =>
        nativeUnavailable() ??
        (allocateDirect(nativeBackend(), 4) === undefined
          ? "the native backend has no direct buffers on this platform"
          : undefined),
    },
    node: (_bh, s) => s.node.pread(s.file.fd, s.buf, 0, 4, 0),
  },
});
/** The syscall-state suites in run order. */
export default [CaptureStateUtilBench, NodeErrno, BackendPread];
