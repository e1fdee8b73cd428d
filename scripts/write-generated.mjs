// The write-or-check step of the packages' code generators (packages/*/scripts/generate.mjs): writes each
// generated file whose text differs, or, with `--check`, writes nothing and exits 1 naming every stale file.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * `files` maps paths relative to `srcUrl` (the package's `src/` as a file URL) to the text the generator
 * makes for them.
 */
export function writeGenerated(srcUrl, files, argv = process.argv) {
  const check = argv.includes("--check");
  let stale = 0;
  for (const [file, text] of Object.entries(files)) {
    const path = fileURLToPath(new URL(file, srcUrl));
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {}
    if (current === text) continue;
    if (check) {
      stale++;
      console.error(`src/${file} is not what scripts/generate.mjs writes: run \`pnpm generate\`.`);
    } else {
      writeFileSync(path, text);
      console.log(`wrote src/${file}`);
    }
  }
  if (stale > 0) process.exit(1);
}
