import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  BUILT_MARKER,
  describeCheckout,
  prepareBaseline,
  repoRoot,
  resolveCommit,
  workspaceRoots,
} from "../src/baseline";
import { currentRoots } from "../src/suites";

const here = fileURLToPath(new URL(".", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "rafkit-baseline-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

const write = (file: string, text: string) => {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
};

/**
 * A small workspace repository of its own: @rafkit/bits (whose build writes dist/index.js), and
 * @rafkit/raf depending on it, with no outside dependency, so pnpm installs it offline.
 */
function tinyRepo(): { repo: string; sha: string } {
  const repo = join(dir, "repo");
  write(join(repo, "package.json"), JSON.stringify({ name: "tiny", private: true }));
  write(join(repo, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
  write(join(repo, ".gitignore"), "node_modules/\ndist/\n.cache/\n");
  const build = `node -e "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/index.js','')"`;
  write(
    join(repo, "packages", "bits", "package.json"),
    JSON.stringify({ name: "@rafkit/bits", version: "0.0.0", scripts: { build } }),
  );
  write(
    join(repo, "packages", "raf", "package.json"),
    JSON.stringify({
      name: "@rafkit/raf",
      version: "0.0.0",
      dependencies: { "@rafkit/bits": "workspace:^" },
      scripts: { build },
    }),
  );
  git(dir, "init", "-q", "repo");
  execFileSync("pnpm", ["install", "--offline"], { cwd: repo, stdio: "ignore" });
  git(repo, "add", ".");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tiny");
  return { repo, sha: git(repo, "rev-parse", "HEAD") };
}

describe("the base build", () => {
  it("finds this repository and its measured packages by their names", () => {
    const repo = repoRoot(here);
    expect(workspaceRoots(repo)).toEqual(currentRoots());
    expect(resolveCommit(repo, "HEAD")).toBe(git(repo, "rev-parse", "HEAD"));
    expect(describeCheckout(repo)).toMatch(/^[0-9a-f]{7,}(-dirty)?$/);
    expect(() => resolveCommit(repo, "no-such-ref-anywhere")).toThrow(
      /"no-such-ref-anywhere" names no commit/,
    );
  });

  it("checks out, installs and builds a commit in the cache once, then reuses it", () => {
    const { repo, sha } = tinyRepo();
    const cacheDir = join(dir, "cache");
    const lines: string[] = [];
    const log = { write: (t: string) => void lines.push(t) };
    const base = prepareBaseline("HEAD", { repo, cacheDir, log });
    expect(lines.join("")).toMatch(
      /git worktree add --detach [\s\S]*pnpm install --frozen-lockfile --offline\)/,
    );
    expect(base.sha).toBe(sha);
    expect(base.dir).toBe(join(cacheDir, sha));
    expect(git(base.dir, "rev-parse", "HEAD")).toBe(sha);
    expect(base.roots["@rafkit/bits"]).toBe(join(base.dir, "packages", "bits"));
    // Built in dependency order, the workspace linked: raf's @rafkit/bits is the base's.
    expect(existsSync(join(base.roots["@rafkit/bits"], "dist", "index.js"))).toBe(true);
    expect(existsSync(join(base.roots["@rafkit/raf"], "dist", "index.js"))).toBe(true);
    expect(existsSync(join(base.roots["@rafkit/raf"], "node_modules", "@rafkit", "bits"))).toBe(
      true,
    );
    expect(readFileSync(join(base.dir, BUILT_MARKER), "utf8")).toBe(`${sha}\n`);
    // Absent packages point where they would be.
    expect(existsSync(base.roots["@rafkit/syscall-state"])).toBe(false);
    // Reused: a build output removed by hand stays removed, since nothing builds again.
    rmSync(join(base.roots["@rafkit/bits"], "dist"), { recursive: true });
    lines.length = 0;
    expect(prepareBaseline(sha.slice(0, 7), { repo, cacheDir, log }).dir).toBe(base.dir);
    expect(lines).toEqual([
      `base ${sha.slice(0, 7)} (${sha.slice(0, 7)}): reusing the build in ${base.dir}\n`,
    ]);
    expect(existsSync(join(base.roots["@rafkit/bits"], "dist"))).toBe(false);
  });
});
