import { execFileSync } from "node:child_process";
import { existsSync, constants as fsConstants } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { errnoOf } from "../src/errno";
import { getBackend } from "../src/get-backend";
import { loadKoffi } from "../src/koffi";
import { nativeLibc } from "../src/libc";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { platformLayout } from "../src/platform/select";
import { distIndex } from "./helpers";

describe("platform layouts", () => {
  test("Linux numbers agree with what libuv was compiled with (fs.constants)", () => {
    const layout = platformLayout("linux", "x64");
    if (typeof layout === "string") throw new Error(layout);
    if (process.platform !== "linux") return;
    expect(layout.O_RDWR).toBe(fsConstants.O_RDWR);
    expect(layout.O_CREAT).toBe(fsConstants.O_CREAT);
    expect(layout.O_SYNC).toBe(fsConstants.O_SYNC);
    expect(layout.O_DSYNC).toBe(fsConstants.O_DSYNC);
  });

  test("the flock struct layouts koffi builds have the sizes the C headers give", () => {
    if (!isNativeAvailable()) return;
    const koffi = loadKoffi();
    const sizes = { linux: 32, darwin: 24, freebsd: 32 } as const;
    for (const os of ["linux", "darwin", "freebsd"] as const) {
      const layout = platformLayout(os, "arm64");
      if (typeof layout === "string") throw new Error(layout);
      expect(koffi.sizeof(koffi.struct(layout.flock))).toBe(sizes[os]);
    }
    expect(platformLayout("darwin", "arm64")).toMatchObject({ variadicAbi: "variadic" });
    expect(platformLayout("darwin", "x64")).toMatchObject({ variadicAbi: "fixed" });
    expect(platformLayout("linux", "s390x")).toMatchObject({
      fadvise: { dontneed: 6, noreuse: 7 },
    });
  });

  test("unsupported platforms and 32-bit architectures say why", () => {
    expect(platformLayout("win32", "x64")).toMatch(/linux, darwin and freebsd, not win32/);
    expect(platformLayout("linux", "ia32")).toMatch(/64-bit architectures only .* not ia32/);
  });

  test("nativeLibc exposes the raw koffi functions (no adapter): -1, errno left behind", () => {
    if (!isNativeAvailable()) return;
    const libc = nativeLibc();
    expect(libc.fcntl(-1, libc.layout.F_GETFD, 0)).toBe(-1);
    expect(libc.close(-1)).toBe(-1);
    expect(nativeLibc()).toBe(libc);
  });
});

describe("getBackend", () => {
  const saved = process.env["RAFKIT_BACKEND"];
  afterEach(() => {
    if (saved === undefined) delete process.env["RAFKIT_BACKEND"];
    else process.env["RAFKIT_BACKEND"] = saved;
  });

  test("auto picks native where it loads; explicit kinds and RAFKIT_BACKEND choose", () => {
    delete process.env["RAFKIT_BACKEND"];
    expect(getBackend()).toBe(isNativeAvailable() ? nativeBackend() : nodeBackend());
    expect(getBackend("node")).toBe(nodeBackend());
    process.env["RAFKIT_BACKEND"] = "node";
    expect(getBackend()).toBe(nodeBackend());
    expect(getBackend("auto").name).toBe("node");
    if (isNativeAvailable()) {
      // The env var overrides "auto" only, never an explicit choice.
      expect(getBackend("native").name).toBe("native");
      process.env["RAFKIT_BACKEND"] = "native";
      expect(getBackend().name).toBe("native");
    }
    process.env["RAFKIT_BACKEND"] = "fast";
    expect(() => getBackend()).toThrow(
      /Unknown backend 'fast' \(from RAFKIT_BACKEND\); valid values are auto, native, node/,
    );
    expect(() => getBackend("other" as never)).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_VALUE" }),
    );
  });
});

describe.skipIf(!existsSync(fileURLToPath(distIndex)))(
  "where the native backend cannot load",
  () => {
    test("nativeBackend throws a clear coded error, and auto falls back to node", () => {
      const script = `
      Object.defineProperty(process, "platform", { value: "sunos" });
      const m = await import(${JSON.stringify(distIndex.href)});
      let error;
      try { m.nativeBackend(); } catch (e) { error = e; }
      let again;
      try { m.nativeLibc(); } catch (e) { again = e; }
      process.stdout.write(JSON.stringify({
        available: m.isNativeAvailable(), auto: m.getBackend().name, code: error.code,
        message: error.message, same: again === error, name: error.name,
      }));`;
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      const report = JSON.parse(out);
      expect(report).toMatchObject({
        available: false,
        auto: "node",
        code: "ERR_RAFKIT_NATIVE_UNAVAILABLE",
        name: "NativeUnavailableError",
        same: true,
      });
      expect(report.message).toMatch(
        /supports linux, darwin and freebsd, not sunos\. Use nodeBackend\(\) instead/,
      );
    });
  },
);

describe.skipIf(!existsSync(fileURLToPath(distIndex)))("lazy loading", () => {
  test("importing the package and using the node backend never loads koffi", () => {
    const cjs = fileURLToPath(new URL("../dist/index.cjs", import.meta.url));
    const script = `
      const m = require(${JSON.stringify(cjs)});
      const count = () => Object.keys(require.cache).filter((k) => k.includes("koffi")).length;
      m.nodeBackend().size(0);
      const before = count();
      m.isNativeAvailable();
      process.stdout.write(JSON.stringify({ before, after: count() }));`;
    const report = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
    expect(report.before).toBe(0);
    if (isNativeAvailable()) expect(report.after).toBeGreaterThan(0);
  });
});

describe.skipIf(!existsSync(fileURLToPath(distIndex)) || !isNativeAvailable())(
  "one thread, two builds",
  () => {
    test("the ESM and the CJS build share the thread's errno slot, as they share its errno", () => {
      const cjs = fileURLToPath(new URL("../dist/index.cjs", import.meta.url));
      const script = `
      const { createRequire } = await import("node:module");
      const esm = await import(${JSON.stringify(distIndex.href)});
      const cjs = createRequire(import.meta.url)(${JSON.stringify(cjs)});
      const viaCjs = cjs.adaptSystemCall(cjs.nativeLibc().close, "errno")(-1);
      const afterCjs = [esm.lastErrno(), cjs.lastErrno()];
      const viaEsm = esm.adaptSystemCall(esm.nativeLibc().fsync, "errno")(-2);
      process.stdout.write(JSON.stringify({ viaCjs, afterCjs, viaEsm, afterEsm: [esm.lastErrno(), cjs.lastErrno()] }));`;
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      const ebadf = errnoOf("EBADF");
      expect(JSON.parse(out)).toEqual({
        viaCjs: -ebadf,
        afterCjs: [ebadf, ebadf],
        viaEsm: -ebadf,
        afterEsm: [ebadf, ebadf],
      });
    });
  },
);
