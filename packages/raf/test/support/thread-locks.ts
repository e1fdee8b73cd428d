import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { AsyncRandomAccessFile, RandomAccessFile } from "../../src/index";
import { tempDir } from "./temp";

// Shared by the thread-locks-*.test.ts files; each test file gets its own copy of this module (and temp directory).

/** Names in this test file's temp directory. */
export const tmp = tempDir();
/** The built package's ESM entry (tests that need it are skipped without it). */
export const dist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
/** Same-thread lock conflicts are detected with Linux OFD locks, through the native backend only. */
export const linuxNative = isNativeAvailable() && process.platform === "linux";
/**
 * Native locks that conflict between two descriptors of one process: Linux OFD locks, Windows `LockFileEx` (macOS's
 * classic fcntl locks are per process).
 */
export const perHandleLocks =
  isNativeAvailable() && (process.platform === "linux" || process.platform === "win32");

/** A fresh 64-byte file to lock. */
export function lockFile(name = "locked.bin"): string {
  const p = tmp(name);
  writeFileSync(p, Buffer.alloc(64));
  return p;
}

/** `p` opened "rw" on the native backend. */
export const open = (p: string) => new RandomAccessFile(p, "rw", { backend: "native" });
/** `p` opened "rw" on the native backend, async. */
export const openAsync = (p: string) => AsyncRandomAccessFile.open(p, "rw", { backend: "native" });

/** The error a call throws (the test fails if it throws none). */
export function thrown(f: () => unknown): Error & { code?: string } {
  try {
    f();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error("expected a throw");
}
