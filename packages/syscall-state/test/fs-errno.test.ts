import { describe, expect, it } from "vitest";
import { errnoOf } from "../src/errno";
import { negativeErrno } from "../src/fs-errno";

// The errors below are shaped as the runtimes' node:fs throws them: Node's carry `errno`; Deno's writeSync, fsyncSync,
// ftruncateSync and closeSync on a bad descriptor carry only `code` (tests/conformance runs the real ones on Deno).
describe("negativeErrno: a node:fs error to -errno", () => {
  it("takes Node's negative errno", () => {
    expect(
      negativeErrno(Object.assign(new Error("EBADF"), { code: "EBADF", errno: -errnoOf("EBADF") })),
    ).toBe(-errnoOf("EBADF"));
  });

  it("maps an errno name given only as code, as Deno's node:fs reports some failures", () => {
    const deno = Object.assign(new Error("Bad file descriptor (os error 9)"), { code: "EBADF" });
    expect(negativeErrno(deno)).toBe(-errnoOf("EBADF"));
    expect(negativeErrno({ code: "ENOSPC" })).toBe(-errnoOf("ENOSPC"));
  });

  it.skipIf(process.platform === "win32")(
    "reads the number of Rust's \"(os error N)\", all Deno's node:fs gives for some (EFBIG, ESPIPE)",
    () => {
      const efbig = new Error("File too large (os error 27)");
      expect(negativeErrno(efbig)).toBe(-27);
      expect(negativeErrno(new Error("Illegal seek (os error 29)"))).toBe(-29);
      expect(() => negativeErrno(new Error("os error 27 in the middle"))).toThrow();
    },
  );

  it("rethrows anything else: argument errors, unknown names, non-errors", () => {
    const bad = Object.assign(new TypeError("bad"), { code: "ERR_INVALID_ARG_TYPE" });
    expect(() => negativeErrno(bad)).toThrow(bad);
    expect(() => negativeErrno({ code: "ENOTANERRNO" })).toThrow();
    expect(() => negativeErrno({ code: "EBADF", errno: 9 })).not.toThrow();
    expect(() => negativeErrno(null)).toThrow();
    expect(() => negativeErrno("boom")).toThrow();
  });
});
