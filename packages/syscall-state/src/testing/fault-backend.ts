import type { Backend, FileMode, LockRequest } from "../backend";
import { ComposedBackend } from "../compose-backend";
import type { DirectBuffer } from "../direct-buffer";
import { errnoOf } from "../errno";
import { nodeError } from "../node-error";
import { PRIMITIVES, type Primitives } from "../primitives";

/** The one-shot calls a rule can target. A rule on `"pread"` also covers `preadAsync`, and so on. */
export type FaultCall =
  | "open"
  | "close"
  | "pread"
  | "pwrite"
  | "size"
  | "truncate"
  | "sync"
  | "datasync"
  | "lock"
  | "unlock"
  | "fadvise"
  | "allocate";

const FAULT_CALLS: readonly FaultCall[] = [
  "open",
  "close",
  "pread",
  "pwrite",
  "size",
  "truncate",
  "sync",
  "datasync",
  "lock",
  "unlock",
  "fadvise",
  "allocate",
];

/** What a rule's `when` filter sees about a call. */
export interface FaultCallInfo {
  readonly call: FaultCall;
  /** True for the `*Async` twin. */
  readonly async: boolean;
  /** The fd, or -1 for `open`. */
  readonly fd: number;
  /** The file position for pread/pwrite, lock ranges, fadvise and allocate; otherwise -1. */
  readonly position: number;
  /** The requested length for pread/pwrite and ranges; otherwise -1. */
  readonly length: number;
  /** The path, for `open` only. */
  readonly path?: string;
}

/**
 * One fault. Exactly one of `errno` and `shortTransfer` must be given.
 *
 * Each rule counts the calls it matches (by `call` and `when`). It lets the first `after` matches through,
 * then fires on the next `times` matches (default: forever). When several rules could fire on one call,
 * the first in the list wins; every matching rule still counts the call.
 *
 * @example
 * { call: "pread", errno: "EINTR", times: 3 }            // the next 3 preads are interrupted (and retried)
 * { call: "pwrite", errno: "ENOSPC", after: 10, times: 1 } // the 11th pwrite fails with ENOSPC
 * { call: ["pread", "pwrite"], shortTransfer: 1 }         // every transfer moves at most 1 byte
 */
export interface FaultRule {
  /** The call, or calls, this rule matches. */
  readonly call: FaultCall | readonly FaultCall[];
  /** Fail with this errno name (`"EINTR"`, `"EAGAIN"`, `"EIO"`, `"ENOSPC"`, `"EBADF"`, ...) without making the call. */
  readonly errno?: string;
  /** pread/pwrite only: make the real call, but for at most this many bytes (at least 1). */
  readonly shortTransfer?: number;
  /** Matching calls let through before the rule fires (default 0). */
  readonly after?: number;
  /** How many times the rule fires (default `Infinity`). */
  readonly times?: number;
  /** Narrows the match further, e.g. `({ position }) => position >= 4096`. */
  readonly when?: (info: FaultCallInfo) => boolean;
}

/** A backend whose one-shot calls fail as its rules say, and which counts every one-shot call. */
export interface FaultBackend extends Backend {
  /**
   * One-shot calls made so far by method, sync and async together, faulted ones included: the number
   * of system calls a real backend would have made (a `preadFully` that loops 3 times counts 3 `pread`).
   */
  readonly calls: Readonly<Record<FaultCall, number>>;
  /** The sum of {@link calls}. */
  totalCalls(): number;
  /** Sets every count in {@link calls} back to 0. */
  resetCalls(): void;
  /** Faults fired so far. */
  readonly injected: number;
  /** Adds a rule after the existing ones (validated as at construction). */
  inject(rule: FaultRule): void;
  /** Removes every rule; calls go straight through again. */
  clearRules(): void;
}

interface ArmedRule {
  readonly calls: ReadonlySet<FaultCall>;
  readonly result: number | undefined;
  readonly shortTransfer: number | undefined;
  readonly after: number;
  readonly times: number;
  readonly when: ((info: FaultCallInfo) => boolean) | undefined;
  seen: number;
  fired: number;
}

function invalid(message: string): TypeError {
  return nodeError(TypeError, "ERR_INVALID_ARG_VALUE", message);
}

function arm(rule: FaultRule): ArmedRule {
  const calls = typeof rule.call === "string" ? [rule.call] : [...rule.call];
  for (const call of calls) {
    if (!FAULT_CALLS.includes(call)) {
      throw invalid(
        `Unknown fault call '${String(call)}'; valid calls are ${FAULT_CALLS.join(", ")}`,
      );
    }
  }
  if ((rule.errno === undefined) === (rule.shortTransfer === undefined)) {
    throw invalid("A fault rule needs exactly one of errno and shortTransfer");
  }
  if (rule.shortTransfer !== undefined) {
    if (!Number.isSafeInteger(rule.shortTransfer) || rule.shortTransfer < 1) {
      throw invalid(`shortTransfer must be an integer >= 1, got ${rule.shortTransfer}`);
    }
    if (calls.some((call) => call !== "pread" && call !== "pwrite")) {
      throw invalid("shortTransfer applies to pread and pwrite only");
    }
  }
  const after = rule.after ?? 0;
  const times = rule.times ?? Number.POSITIVE_INFINITY;
  if (!(after >= 0) || !(times >= 0)) throw invalid("after and times must be >= 0");
  return {
    calls: new Set(calls),
    result: rule.errno === undefined ? undefined : -errnoOf(rule.errno),
    shortTransfer: rule.shortTransfer,
    after,
    times,
    when: rule.when,
    seen: 0,
    fired: 0,
  };
}

const NO_PATH = undefined;

/**
 * Wraps `inner` so chosen calls fail with a chosen errno, or transfer fewer bytes, as `rules` say.
 *
 * Faults go in beneath the shared retry and full-transfer loops: the wrapper takes `inner`'s one-shot
 * primitives and builds a new backend over them with the same loops the real backends use. So an
 * injected `EINTR` is retried by `pread`/`pwrite` for real, a short transfer is completed by
 * `preadFully`/`pwriteFully`, and a non-waiting lock's `EACCES` comes out as `-EAGAIN`. (For a backend
 * not built by this package, `inner`'s own methods are taken as the one-shot calls.)
 *
 * @example
 * const backend = faultBackend(nodeBackend(), [{ call: "pread", errno: "EINTR", times: 2 }]);
 * backend.pread(fd, buf, 0, 4, 0); // 4: two EINTRs, retried
 * backend.calls.pread;              // 3
 */
export function faultBackend(inner: Backend, rules: readonly FaultRule[] = []): FaultBackend {
  const p: Primitives =
    (inner as Partial<Record<typeof PRIMITIVES, Primitives>>)[PRIMITIVES] ?? inner;
  const armed = rules.map(arm);
  const calls = Object.fromEntries(FAULT_CALLS.map((call) => [call, 0])) as Record<
    FaultCall,
    number
  >;
  let injected = 0;

  /** Counts the call and returns the rule that fires on it, if any. */
  const decide = (info: FaultCallInfo): ArmedRule | undefined => {
    calls[info.call]++;
    let firing: ArmedRule | undefined;
    for (const rule of armed) {
      if (!rule.calls.has(info.call) || (rule.when !== undefined && !rule.when(info))) continue;
      rule.seen++;
      if (firing === undefined && rule.seen > rule.after && rule.fired < rule.times) firing = rule;
    }
    if (firing !== undefined) {
      firing.fired++;
      injected++;
    }
    return firing;
  };
  const info = (
    call: FaultCall,
    async: boolean,
    fd: number,
    position = -1,
    length = -1,
    path: string | undefined = NO_PATH,
  ): FaultCallInfo =>
    path === undefined
      ? { call, async, fd, position, length }
      : { call, async, fd, position, length, path };

  /** A simple call: fail, or pass through. */
  const simple =
    <A extends unknown[]>(describe: (...args: A) => FaultCallInfo, run: (...args: A) => number) =>
    (...args: A): number => {
      const rule = decide(describe(...args));
      return rule?.result ?? run(...args);
    };
  const simpleAsync =
    <A extends unknown[]>(
      describe: (...args: A) => FaultCallInfo,
      run: (...args: A) => Promise<number>,
    ) =>
    (...args: A): Promise<number> => {
      const rule = decide(describe(...args));
      return rule?.result === undefined ? run(...args) : Promise.resolve(rule.result);
    };
  type Transfer = (fd: number, b: Uint8Array, o: number, l: number, pos: number) => number;
  type TransferAsync = (
    fd: number,
    b: Uint8Array,
    o: number,
    l: number,
    pos: number,
  ) => Promise<number>;
  const transfer =
    (call: "pread" | "pwrite", run: Transfer): Transfer =>
    (fd, b, o, l, pos) => {
      const rule = decide(info(call, false, fd, pos, l));
      if (rule === undefined) return run(fd, b, o, l, pos);
      return rule.result ?? run(fd, b, o, Math.min(l, rule.shortTransfer!), pos);
    };
  const transferAsync =
    (call: "pread" | "pwrite", run: TransferAsync): TransferAsync =>
    (fd, b, o, l, pos) => {
      const rule = decide(info(call, true, fd, pos, l));
      if (rule === undefined) return run(fd, b, o, l, pos);
      if (rule.result !== undefined) return Promise.resolve(rule.result);
      return run(fd, b, o, Math.min(l, rule.shortTransfer!), pos);
    };

  // Where `inner` has direct buffers, so does the wrapper, and their calls meet the same rules.
  type Direct = (fd: number, length: number, position: number) => number;
  const direct =
    (call: "pread" | "pwrite", run: Direct): Direct =>
    (fd, length, position) => {
      const rule = decide(info(call, false, fd, position, length));
      if (rule === undefined) return run(fd, length, position);
      return rule.result ?? run(fd, Math.min(length, rule.shortTransfer!), position);
    };
  const allocate = p.allocateDirect;
  const allocateDirect = (capacity: number): DirectBuffer | undefined => {
    const d = allocate?.(capacity);
    return d === undefined
      ? undefined
      : {
          bytes: d.bytes,
          pread: direct("pread", (fd, length, position) => d.pread(fd, length, position)),
          pwrite: direct("pwrite", (fd, length, position) => d.pwrite(fd, length, position)),
        };
  };

  const faulty: Primitives = {
    name: `fault(${inner.name})`,
    ...(allocate === undefined ? {} : { allocateDirect }),
    // Not a system call to fail: raf asks it to tell two descriptors of one file apart.
    ...(p.identity === undefined ? {} : { identity: p.identity }),
    open: simple(
      (path: string, _mode: FileMode) => info("open", false, -1, -1, -1, path),
      (path, mode) => p.open(path, mode),
    ),
    close: simple(
      (fd: number) => info("close", false, fd),
      (fd) => p.close(fd),
    ),
    pread: transfer("pread", (...a) => p.pread(...a)),
    pwrite: transfer("pwrite", (...a) => p.pwrite(...a)),
    size: simple(
      (fd: number) => info("size", false, fd),
      (fd) => p.size(fd),
    ),
    truncate: simple(
      (fd: number, length: number) => info("truncate", false, fd, -1, length),
      (fd, length) => p.truncate(fd, length),
    ),
    sync: simple(
      (fd: number) => info("sync", false, fd),
      (fd) => p.sync(fd),
    ),
    datasync: simple(
      (fd: number) => info("datasync", false, fd),
      (fd) => p.datasync(fd),
    ),
    lock: simple(
      (fd: number, r: LockRequest) => info("lock", false, fd, r.position, r.length),
      (fd, r) => p.lock(fd, r),
    ),
    unlock: simple(
      (fd: number, position: number, length: number) => info("unlock", false, fd, position, length),
      (fd, position, length) => p.unlock(fd, position, length),
    ),
    fadvise: simple(
      (fd: number, position: number, length: number, _advice: string) =>
        info("fadvise", false, fd, position, length),
      (fd, position, length, advice) => p.fadvise(fd, position, length, advice as never),
    ),
    allocate: simple(
      (fd: number, position: number, length: number) =>
        info("allocate", false, fd, position, length),
      (fd, position, length) => p.allocate(fd, position, length),
    ),
    openAsync: simpleAsync(
      (path: string, _mode: FileMode) => info("open", true, -1, -1, -1, path),
      (path, mode) => p.openAsync(path, mode),
    ),
    closeAsync: simpleAsync(
      (fd: number) => info("close", true, fd),
      (fd) => p.closeAsync(fd),
    ),
    preadAsync: transferAsync("pread", (...a) => p.preadAsync(...a)),
    pwriteAsync: transferAsync("pwrite", (...a) => p.pwriteAsync(...a)),
    sizeAsync: simpleAsync(
      (fd: number) => info("size", true, fd),
      (fd) => p.sizeAsync(fd),
    ),
    truncateAsync: simpleAsync(
      (fd: number, length: number) => info("truncate", true, fd, -1, length),
      (fd, length) => p.truncateAsync(fd, length),
    ),
    syncAsync: simpleAsync(
      (fd: number) => info("sync", true, fd),
      (fd) => p.syncAsync(fd),
    ),
    datasyncAsync: simpleAsync(
      (fd: number) => info("datasync", true, fd),
      (fd) => p.datasyncAsync(fd),
    ),
    lockAsync: simpleAsync(
      (fd: number, r: LockRequest) => info("lock", true, fd, r.position, r.length),
      (fd, r) => p.lockAsync(fd, r),
    ),
  };

  const features = inner.features ?? { locks: true, allocate: true, fadvise: true };
  const backend = new ComposedBackend(faulty, features) as ComposedBackend & {
    calls: Record<FaultCall, number>;
  };
  Object.defineProperty(backend, "injected", { get: () => injected, enumerable: true });
  return Object.assign(backend, {
    calls,
    totalCalls: () => FAULT_CALLS.reduce((sum, call) => sum + calls[call], 0),
    resetCalls: () => {
      for (const call of FAULT_CALLS) calls[call] = 0;
    },
    inject: (rule: FaultRule) => {
      armed.push(arm(rule));
    },
    clearRules: () => {
      armed.length = 0;
    },
  }) as unknown as FaultBackend;
}
