import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { OverlappingFileLockError } from "../src/index";
import { dist, linuxNative, lockFile, open } from "./support/thread-locks";
import { killIfHung } from "./support/watchdog";

if (!linuxNative)
  console.warn("same-thread lock tests skipped: they need Linux OFD locks (native backend)");

// Without the rule these tests block this thread forever in F_OFD_SETLKW: the watchdog turns that into a
// killed (failed) run.
killIfHung(90);

describe.skipIf(!linuxNative || !existsSync(dist))(
  "one record per thread across copies of the package (built dist)",
  () => {
    test("a lock taken through the ESM build stops a sync lock() through the CJS build (and this test's source copy)", async () => {
      const esm = (await import(dist)) as typeof import("../src/index");
      const cjs = createRequire(import.meta.url)(
        dist.replace(/\.js$/, ".cjs"),
      ) as typeof import("../src/index");
      expect(cjs.RandomAccessFile).not.toBe(esm.RandomAccessFile);
      const p = lockFile();
      const holder = new esm.RandomAccessFile(p, "rw", { backend: "native" });
      const held = holder.lock();
      const viaCjs = new cjs.RandomAccessFile(p, "rw", { backend: "native" });
      expect(() => viaCjs.lock()).toThrow(
        expect.objectContaining({ code: "ERR_RAF_OVERLAPPING_LOCK" }),
      );
      const viaSource = open(p);
      expect(() => viaSource.lock({ shared: true })).toThrow(OverlappingFileLockError);
      held.release();
      viaCjs.lock().release();
      viaSource.close();
      viaCjs.close();
      holder.close();
    });

    test("a copy loaded in another realm of this thread (a vm context, as Jest loads a package per test file) shares the record, both ways", () => {
      const script = fileURLToPath(new URL("./fixtures/vm-realm-lock.cjs", import.meta.url));
      // Without a shared record the lock() blocks the child forever: the timeout kills it (signal set).
      const r = spawnSync(process.execPath, [script, dist.replace(/\.js$/, ".cjs"), lockFile()], {
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        separateCopies: true,
        separateRealms: true,
        contextHolds: ["ERR_RAF_OVERLAPPING_LOCK", "granted"],
        hostHolds: ["ERR_RAF_OVERLAPPING_LOCK", "granted"],
      });
    });

    test("with Node's fs module made non-extensible (hardened environments), the package still loads and the ESM and CJS builds still share the record", () => {
      const script = `
        const { createRequire } = require("node:module");
        Object.preventExtensions(require("node:fs"));
        (async () => {
          const esm = await import(process.argv[1]);
          const cjs = createRequire(process.argv[1])(process.argv[1].replace(/\\.js$/, ".cjs"));
          const a = new esm.RandomAccessFile(process.argv[2], "rw", { backend: "native" });
          const b = new cjs.RandomAccessFile(process.argv[2], "rw", { backend: "native" });
          a.lock();
          let outcome = "granted";
          try { b.lock(); } catch (e) { outcome = e.code; }
          console.log(outcome);
          b.close();
          a.close();
        })();`;
      const r = spawnSync(process.execPath, ["-e", script, dist, lockFile()], {
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe("ERR_RAF_OVERLAPPING_LOCK");
    });
  },
);
