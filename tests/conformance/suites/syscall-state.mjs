// @rafkit/syscall-state: the Backend contract on both backends (native/koffi and node:fs), over real files, and the
// errno-capturing adapter over real koffi-bound libc calls.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  adaptSystemCall,
  adaptSystemCallExplicit,
  CaptureState,
  describeErrno,
  errnoName,
  errnoOf,
  getBackend,
  isNativeAvailable,
  lastErrno,
  nativeBackend,
  nativeLibc,
  nodeBackend,
  SystemCallError,
  systemCallError,
} from "@rafkit/syscall-state";
import { note, runtimeInfo, tempPath, test } from "../harness.mjs";

const enc = (s) => new TextEncoder().encode(s);
const dec = (b) => new TextDecoder().decode(b);
const ENOENT = -errnoOf("ENOENT");
const EBADF = -errnoOf("EBADF");
const EISDIR = -errnoOf("EISDIR");
const ESPIPE = -errnoOf("ESPIPE");
const EFBIG = -errnoOf("EFBIG");

note("native backend", isNativeAvailable() ? "loads (koffi)" : "does not load: node backend only");

test(
  "syscall-state: getBackend('auto') is native where koffi loads; the names are stable",
  ["native", "node"],
  () => {
    assert.equal(isNativeAvailable(), true, "koffi must load on every supported Linux runtime");
    assert.equal(getBackend().name, "native");
    assert.equal(getBackend("node"), nodeBackend());
    assert.equal(getBackend("native"), nativeBackend());
    assert.deepEqual(nativeBackend().features, { locks: true, allocate: true, fadvise: true });
    assert.equal(nodeBackend().features.locks, false);
  },
);

for (const kind of ["native", "node"]) {
  const b = () => getBackend(kind);
  const T = [kind];

  test(
    `syscall-state/${kind}: open of a missing file is -ENOENT, nothing thrown; systemCallError shapes it`,
    T,
    () => {
      const p = `${tempPath()}.missing`;
      const r = b().open(p, "r");
      assert.equal(r, ENOENT);
      const e = systemCallError(r, "open", p);
      assert.ok(e instanceof SystemCallError);
      assert.equal(e.code, "ENOENT");
      assert.equal(e.errno, ENOENT);
      assert.equal(e.syscall, "open");
      assert.equal(e.path, p);
      assert.equal(e.message, `ENOENT: no such file or directory, open '${p}'`);
    },
  );

  test(
    `syscall-state/${kind}: pwriteFully/preadFully round-trip; pread at EOF is 0; preadFully is short at EOF`,
    T,
    () => {
      const p = tempPath();
      const fd = b().open(p, "rw");
      assert.ok(fd >= 0);
      try {
        assert.equal(b().pwriteFully(fd, enc("xxhello"), 2, 5, 10), 5);
        assert.equal(b().size(fd), 15);
        const buf = new Uint8Array(8);
        assert.equal(b().preadFully(fd, buf, 1, 5, 10), 5);
        assert.equal(dec(buf.subarray(1, 6)), "hello");
        assert.equal(b().pread(fd, buf, 0, 8, 15), 0);
        assert.equal(b().preadFully(fd, buf, 0, 8, 12), 3);
        // A subclass's overridden methods are not the bytes: its own memory is (Deno's fs.write called subarray).
        class Lying extends Uint8Array {
          subarray() {
            return new Uint8Array(64).fill(0x45);
          }
        }
        assert.equal(b().pwriteFully(fd, Lying.of(0x6f, 0x6b), 0, 2, 20), 2);
        assert.equal(b().size(fd), 22);
        assert.deepEqual(
          [...fs.readFileSync(p).subarray(0, 10)],
          new Array(10).fill(0),
          "the hole reads as zeros",
        );
      } finally {
        assert.equal(b().close(fd), 0);
      }
    },
  );

  test(`syscall-state/${kind}: 64-bit offsets are exact beyond 4 GiB (sparse)`, T, () => {
    const p = tempPath();
    const fd = b().open(p, "rw");
    try {
      const at = 5 * 1024 ** 3 + 3;
      assert.equal(b().pwriteFully(fd, enc("far"), 0, 3, at), 3);
      assert.equal(b().size(fd), at + 3);
      assert.equal(fs.statSync(p).size, at + 3);
      const buf = new Uint8Array(3);
      assert.equal(b().preadFully(fd, buf, 0, 3, at), 3);
      assert.equal(dec(buf), "far");
    } finally {
      b().close(fd);
    }
  });

  test(`syscall-state/${kind}: truncate shrinks and extends; sync and datasync answer 0`, T, () => {
    const p = tempPath();
    const fd = b().open(p, "rw");
    try {
      b().pwriteFully(fd, enc("0123456789"), 0, 10, 0);
      assert.equal(b().truncate(fd, 4), 0);
      assert.equal(b().size(fd), 4);
      assert.equal(b().truncate(fd, 4096), 0);
      assert.equal(fs.statSync(p).size, 4096);
      assert.equal(b().sync(fd), 0);
      assert.equal(b().datasync(fd), 0);
    } finally {
      b().close(fd);
    }
  });

  test(
    `syscall-state/${kind}: a closed descriptor is -EBADF for every call, a zero-length one too`,
    T,
    () => {
      const fd = b().open(tempPath(), "rw");
      b().close(fd);
      const buf = new Uint8Array(1);
      assert.equal(b().pread(fd, buf, 0, 0, 0), EBADF);
      assert.equal(b().pwrite(fd, buf, 0, 1, 0), EBADF);
      assert.equal(b().size(fd), EBADF);
      assert.equal(b().sync(fd), EBADF);
      assert.equal(b().close(-1), EBADF);
    },
  );

  test(
    `syscall-state/${kind}: a directory opens "r", and then size and pread are -EISDIR; "rw" is -EISDIR`,
    T,
    () => {
      const dir = path.dirname(tempPath());
      assert.equal(b().open(dir, "rw"), EISDIR);
      const fd = b().open(dir, "r");
      assert.ok(fd >= 0, `open(dir, "r") = ${fd}`);
      try {
        assert.equal(b().size(fd), EISDIR);
        assert.equal(b().pread(fd, new Uint8Array(4), 0, 4, 0), EISDIR);
      } finally {
        assert.equal(b().close(fd), 0);
      }
    },
  );

  test(
    `syscall-state/${kind}: a FIFO has size 0; positional reads and writes on it are -ESPIPE`,
    T,
    () => {
      const fifo = tempPath("fifo");
      execFileSync("mkfifo", [fifo]);
      // "rw" opens a FIFO without waiting for a peer (Linux); the positional calls fail before any data moves.
      const fd = b().open(fifo, "rw");
      assert.ok(fd >= 0, `open(fifo, "rw") = ${fd}`);
      try {
        assert.equal(b().size(fd), 0);
        assert.equal(b().pread(fd, new Uint8Array(1), 0, 1, 0), ESPIPE);
        assert.equal(b().pwrite(fd, new Uint8Array(1), 0, 1, 0), ESPIPE);
      } finally {
        assert.equal(b().close(fd), 0);
      }
    },
  );

  test(
    `syscall-state/${kind}: a write past the file system's largest file is -EFBIG, nothing thrown`,
    T,
    () => {
      const p = tempPath();
      const fd = b().open(p, "rw");
      try {
        // ext4 stops at 16 TiB; tmpfs and XFS take 1 PiB sparse files, so there the byte is written.
        const r = b().pwrite(fd, new Uint8Array(1), 0, 1, 2 ** 50);
        if (r === 1)
          note(`${kind} write at 1 PiB`, "the temporary directory's file system takes it");
        else assert.equal(r, EFBIG);
      } finally {
        assert.equal(b().close(fd), 0);
      }
    },
  );

  test(
    `syscall-state/${kind}: a truncate past what the file system or the runtime takes is -EFBIG, never a throw`,
    [kind, "async"],
    async () => {
      const fd = b().open(tempPath(), "rw");
      try {
        // 2^52: ext4 stops at 16 TiB (the kernel's EFBIG); Bun's node:fs refuses it before the kernel.
        for (const r of [b().truncate(fd, 2 ** 52), await b().truncateAsync(fd, 2 ** 52)]) {
          if (r === 0)
            note(`${kind} truncate to 2^52`, "the temporary directory's file system takes it");
          else assert.equal(r, EFBIG);
        }
      } finally {
        assert.equal(b().close(fd), 0);
      }
    },
  );

  test(`syscall-state/${kind}: bad arguments throw typed errors before any system call`, T, () => {
    const p = tempPath();
    const fd = b().open(p, "rw");
    try {
      assert.throws(() => b().pwrite(fd, new Uint8Array(4), 2, 4, 0), {
        name: "RangeError",
        code: "ERR_OUT_OF_RANGE",
      });
      assert.throws(() => b().pread(fd, new Uint8Array(4), 0, 1, -1), { code: "ERR_OUT_OF_RANGE" });
      assert.throws(() => b().open(p, "x"), { code: "ERR_INVALID_ARG_VALUE" });
      assert.throws(() => b().open(`${p}\u0000x`, "rw"), {
        name: "TypeError",
        code: "ERR_INVALID_ARG_VALUE",
      });
      assert.equal(fs.statSync(p).size, 0, "nothing was written");
    } finally {
      b().close(fd);
    }
  });

  test(
    `syscall-state/${kind}: the async twins run the same contract`,
    [kind, "async"],
    async () => {
      assert.equal(await b().openAsync(`${tempPath()}.missing`, "r"), ENOENT);
      const p = tempPath();
      const fd = await b().openAsync(p, "rw");
      assert.ok(fd >= 0);
      try {
        assert.equal(await b().pwriteFullyAsync(fd, enc("async!"), 0, 6, 4096), 6);
        assert.equal(await b().sizeAsync(fd), 4102);
        const buf = new Uint8Array(6);
        assert.equal(await b().preadFullyAsync(fd, buf, 0, 6, 4096), 6);
        assert.equal(dec(buf), "async!");
        assert.equal(await b().preadAsync(fd, buf, 0, 6, 5000), 0);
        assert.equal(await b().truncateAsync(fd, 10), 0);
        assert.equal(await b().syncAsync(fd), 0);
        assert.equal(await b().datasyncAsync(fd), 0);
        const reads = await Promise.all(
          Array.from({ length: 32 }, () => b().preadAsync(fd, new Uint8Array(4), 0, 4, 0)),
        );
        assert.deepEqual(reads, new Array(32).fill(4));
      } finally {
        assert.equal(await b().closeAsync(fd), 0);
      }
      assert.equal(await b().sizeAsync(fd), EBADF);
    },
  );
}

test(
  "syscall-state/native: fcntl locks: a second description's non-waiting lock is -EAGAIN",
  ["native", "locks"],
  () => {
    const n = nativeBackend();
    const p = tempPath();
    const a = n.open(p, "rw");
    const c = n.open(p, "rw");
    try {
      assert.equal(n.lock(a, { shared: false, wait: false, position: 0, length: 0 }), 0);
      assert.equal(
        n.lock(c, { shared: true, wait: false, position: 0, length: 10 }),
        -errnoOf("EAGAIN"),
      );
      assert.equal(n.unlock(a, 0, 0), 0);
      assert.equal(n.lock(c, { shared: true, wait: false, position: 0, length: 10 }), 0);
      assert.equal(
        n.lock(a, { shared: true, wait: false, position: 5, length: 10 }),
        0,
        "shared locks coexist",
      );
    } finally {
      n.close(a);
      n.close(c);
    }
  },
);

test(
  "syscall-state/node: locks are -ENOTSUP, allocate -ENOTSUP, fadvise 0",
  ["node", "locks"],
  () => {
    const n = nodeBackend();
    const fd = n.open(tempPath(), "rw");
    try {
      assert.equal(
        n.lock(fd, { shared: false, wait: false, position: 0, length: 0 }),
        -errnoOf("ENOTSUP"),
      );
      assert.equal(n.allocate(fd, 0, 10), -errnoOf("ENOTSUP"));
      assert.equal(n.fadvise(fd, 0, 0, "sequential"), 0);
    } finally {
      n.close(fd);
    }
  },
);

test(
  "syscall-state: the adapter captures errno right after a failing libc call (cached slot)",
  ["native"],
  () => {
    const libc = nativeLibc();
    const close = adaptSystemCall(libc.close, "errno");
    assert.equal(close.stateName, "errno");
    assert.equal(close(-1), EBADF);
    assert.equal(lastErrno(), -EBADF);
    const lseek = adaptSystemCall(libc.lseek, "errno");
    assert.equal(lseek(-1, 0, 0), EBADF);
  },
);

test(
  "syscall-state: the explicit path writes errno into the caller's CaptureState",
  ["native"],
  () => {
    const close = adaptSystemCallExplicit(nativeLibc().close, "errno");
    const state = new CaptureState();
    assert.equal(close(state, -1), EBADF);
    assert.equal(state.value, -EBADF);
  },
);

test(
  "syscall-state: the adapter's async call runs on the pool and still reports -errno",
  ["native", "async"],
  async () => {
    const close = adaptSystemCall(nativeLibc().close, "errno");
    assert.equal(await close.async(-1), EBADF);
    if (process.platform !== "win32")
      assert.throws(() => adaptSystemCall(nativeLibc().close, "GetLastError"), {
        name: "TypeError",
        message: /Windows only/,
      });
    assert.throws(() => adaptSystemCall(nativeLibc().close, "nonsense"), TypeError);
  },
);

test("syscall-state: errno names come from the runtime's own table", ["native", "node"], () => {
  assert.equal(errnoName(ENOENT), "ENOENT");
  assert.equal(errnoOf("EBADF"), -EBADF);
  assert.deepEqual(describeErrno(ENOENT), ["ENOENT", "no such file or directory"]);
  // Every errno the OS names makes a typed error (Deno's getSystemErrorName answers undefined for some).
  for (const [name, n] of Object.entries(os.constants.errno)) {
    const e = systemCallError(-n, "open", "/x");
    assert.equal(typeof e.code, "string", `${name} (${n})`);
    assert.equal(e.errno, -n);
  }
  assert.equal(errnoName(-9999), "UNKNOWN");
});

if (runtimeInfo().name === "Deno")
  test(
    "syscall-state: without --allow-env the default backend is chosen all the same (RAFKIT_BACKEND unread)",
    ["native", "node"],
    () => {
      const script = `import { getBackend } from "@rafkit/syscall-state"; console.log(getBackend().name);`;
      const out = execFileSync(
        process.execPath,
        ["run", "--allow-read", "--allow-write", "--allow-ffi", "--no-lock", "--quiet", "-"],
        { input: script, cwd: path.dirname(new URL(import.meta.url).pathname), encoding: "utf8" },
      );
      assert.equal(out.trim(), "native");
    },
  );
