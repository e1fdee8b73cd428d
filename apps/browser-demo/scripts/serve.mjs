// A tiny static server for the Chromium run: files from `roots` (first match wins), and POST /upload/<name>
// saving the body under `uploads` (how the page hands rafkit-written bytes to the JDK).
import { createReadStream, existsSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".map": "application/json",
  ".css": "text/css",
  ".log": "text/plain",
  ".svg": "image/svg+xml",
};

/** Starts the server on a free localhost port; resolves to `{ url, close }`. */
export function serve(roots, uploads) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    if (req.method === "POST" && path.startsWith("/upload/")) {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        writeFileSync(
          join(uploads, path.slice("/upload/".length).replace(/[/\\]/g, "_")),
          Buffer.concat(chunks),
        );
        res.end("ok");
      });
      return;
    }
    const file = roots
      .map((root) => join(root, path === "/" ? "index.html" : path))
      .find((p) => existsSync(p) && statSync(p).isFile());
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}
