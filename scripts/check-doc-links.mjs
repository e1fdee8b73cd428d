// Checks every relative link in the repository's tracked Markdown: the file must exist and, for a link into a
// Markdown file, the `#anchor` must name one of its headings (GitHub's slugs). Exit status 1 on a broken link.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

/** Markdown without its fenced code blocks, whose text is not rendered as links or headings. */
function prose(markdown) {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The anchors a Markdown file's headings make, with GitHub's -1, -2 suffixes for repeats. */
function anchors(markdown) {
  const seen = new Map();
  const result = new Set();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function brokenLinks() {
  const files = execFileSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  const anchorCache = new Map();
  const anchorsOf = (path) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchors(readFileSync(path, "utf8")));
    return anchorCache.get(path);
  };
  const broken = [];
  for (const file of files) {
    const path = join(root, file);
    const text = prose(readFileSync(path, "utf8"));
    for (const [, target] of text.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const [pathPart, anchor] = target.split("#", 2);
      const linked = pathPart === "" ? path : normalize(join(dirname(path), decodeURI(pathPart)));
      if (!existsSync(linked)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      const isMarkdown = linked.endsWith(".md") && statSync(linked).isFile();
      if (anchor !== undefined && isMarkdown && !anchorsOf(linked).has(anchor.toLowerCase())) {
        broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(root, linked)})`);
      }
    }
  }
  return { files: files.length, broken };
}

const { files, broken } = brokenLinks();
for (const line of broken) console.error(line);
if (broken.length > 0) {
  console.error(`check-doc-links: ${broken.length} broken link(s) in ${files} Markdown files`);
  process.exitCode = 1;
} else {
  console.log(`check-doc-links: every relative link in ${files} Markdown files resolves`);
}
