// `node:url` in a browser: a `file:` URL names a path in the origin's private file system.
/** The path of a `file:` URL (`file:///data/x.bin` is `/data/x.bin`); a `TypeError` for other schemes. */
export function fileURLToPath(url: URL | string): string {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.protocol !== "file:") {
    const error = new TypeError("The URL must be of scheme file");
    (error as TypeError & { code: string }).code = "ERR_INVALID_URL_SCHEME";
    throw error;
  }
  return decodeURIComponent(u.pathname);
}
