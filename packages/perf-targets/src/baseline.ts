import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MEASURED_PACKAGES, type MeasuredPackage, type PackageRoots } from "./suites";

/** A baseline that cannot be made (a ref naming no commit, a failed install or build): said in one line. */
export class BaselineError extends Error {
  override name = "BaselineError";
}

/** A base build: a commit checked out and built in a cache directory of its own. */
export interface Baseline {
  /** The commit. */
  sha: string;
  /** Its worktree. */
  dir: string;
  /** Its measured packages (a package it lacks points at a path that does not exist). */
  roots: PackageRoots;
}

/** Where `prepareBaseline` writes the commit once the base is built: its presence means "reuse". */
export const BUILT_MARKER = ".perf-targets-built";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** The top of the git worktree `dir` is in. */
export function repoRoot(dir: string): string {
  return git(dir, "rev-parse", "--show-toplevel");
}

/** The commit a ref names (a branch, tag, or abbreviated sha), in full. */
export function resolveCommit(repo: string, ref: string): string {
  try {
    return git(repo, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
  } catch {
    throw new BaselineError(`${JSON.stringify(ref)} names no commit in ${repo}`);
  }
}

/** The current checkout as `git describe` names it (`413825f`, `413825f-dirty`). */
export function describeCheckout(repo: string): string {
  return git(repo, "describe", "--always", "--dirty");
}

/**
 * The measured packages of a workspace checkout, found by the names in `packages/*` and `apps/*`
 * `package.json` files (so a package that moved is still found); one it lacks maps to the path it would have.
 */
export function workspaceRoots(dir: string): PackageRoots {
  const found = new Map<string, string>();
  for (const group of ["packages", "apps"]) {
    if (!existsSync(join(dir, group))) continue;
    for (const entry of readdirSync(join(dir, group))) {
      const manifest = join(dir, group, entry, "package.json");
      if (!existsSync(manifest)) continue;
      const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      if (name) found.set(name, join(dir, group, entry));
    }
  }
  const missing = (p: MeasuredPackage) => join(dir, "packages", p.slice(p.indexOf("/") + 1));
  return Object.fromEntries(
    MEASURED_PACKAGES.map((p) => [p, found.get(p) ?? missing(p)]),
  ) as PackageRoots;
}

/** Where `prepareBaseline` reports: a line at a time, or, for commands, their output as it comes. */
export interface BaselineLog {
  /** Takes some text (whole lines). */
  write(text: string): void;
}

/**
 * Runs a command, its output on stderr as it comes (stdout stays for the tables) or into `log`; true if it
 * exited 0.
 */
function run(log: BaselineLog | undefined, cwd: string, command: string, args: readonly string[]) {
  (log ?? process.stderr).write(`$ (cd ${cwd} && ${command} ${args.join(" ")})\n`);
  if (log === undefined)
    return spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] }).status === 0;
  const r = spawnSync(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  log.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
  return r.status === 0;
}

/** Options of `prepareBaseline`. */
export interface BaselineOptions {
  /** The repository (any of its worktrees). */
  repo: string;
  /** Where base worktrees go, one per commit (default `<repo>/.cache/baseline`, gitignored). */
  cacheDir?: string;
  /** Where the commands and their output go (default: stderr, as they run). */
  log?: BaselineLog;
}

/**
 * Checks out `ref` with `git worktree add --detach` into `<cacheDir>/<sha>`, installs its dependencies from
 * the store (`pnpm install --frozen-lockfile --offline`, then without `--offline` if that fails) and builds
 * the measured packages and their dependencies there. A base already built for that commit is reused.
 */
export function prepareBaseline(ref: string, options: BaselineOptions): Baseline {
  const sha = resolveCommit(options.repo, ref);
  const dir = join(options.cacheDir ?? join(options.repo, ".cache", "baseline"), sha);
  const marker = join(dir, BUILT_MARKER);
  if (existsSync(marker) && readFileSync(marker, "utf8").trim() === sha) {
    (options.log ?? process.stderr).write(
      `base ${ref} (${sha.slice(0, 7)}): reusing the build in ${dir}\n`,
    );
    return { sha, dir, roots: workspaceRoots(dir) };
  }
  if (!existsSync(join(dir, ".git"))) {
    git(options.repo, "worktree", "prune"); // a worktree whose directory was deleted by hand
    if (!run(options.log, options.repo, "git", ["worktree", "add", "--detach", dir, sha]))
      throw new BaselineError(`git worktree add ${dir} ${sha} failed`);
  }
  if (
    !run(options.log, dir, "pnpm", ["install", "--frozen-lockfile", "--offline"]) &&
    !run(options.log, dir, "pnpm", ["install", "--frozen-lockfile"])
  )
    throw new BaselineError(`pnpm install failed in ${dir}`);
  const roots = workspaceRoots(dir);
  const present = MEASURED_PACKAGES.filter((p) => existsSync(join(roots[p], "package.json")));
  // `name...`: the package and everything it depends on, in dependency order.
  const filters = present.flatMap((p) => ["--filter", `${p}...`]);
  if (!run(options.log, dir, "pnpm", [...filters, "run", "build"]))
    throw new BaselineError(`build failed in ${dir}`);
  writeFileSync(marker, `${sha}\n`);
  return { sha, dir, roots };
}
