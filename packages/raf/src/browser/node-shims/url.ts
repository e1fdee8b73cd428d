// `node:url` in a browser: a `file:` URL names a path in the origin's private file system.
/**
 * The path of a `file:` URL (`file:///data/x.bin` is `/data/x.bin`), refused as Node refuses it on POSIX:
 * another scheme, a host other than `localhost`, or an encoded `/` in the path (a `TypeError` with Node's code).
 */
export function fileURLToPath(url: URL | string): string {
  if (typeof url !== "string" && !(url instanceof URL)) {
    const error = new TypeError(
      `The "path" argument must be of type string or an instance of URL. ${received(url)}`,
    );
    throw Object.assign(error, { code: "ERR_INVALID_ARG_TYPE" });
  }
  const u = typeof url === "string" ? new URL(url) : url;
  // Node's codes and messages, one per rule.
  const [code, message] =
    u.protocol !== "file:"
      ? ["ERR_INVALID_URL_SCHEME", "The URL must be of scheme file"]
      : u.hostname !== "" && u.hostname !== "localhost"
        ? ["ERR_INVALID_FILE_URL_HOST", 'File URL host must be "localhost" or empty']
        : /%2f/i.test(u.pathname)
          ? ["ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters"]
          : [undefined, ""];
  if (code === undefined) return decodeURIComponent(u.pathname);
  throw Object.assign(new TypeError(message), { code });
}

/** How Node's `ERR_INVALID_ARG_TYPE` messages end: `Received null`, `Received type number (5)`, … */
function received(value: unknown): string {
  if (value === null || value === undefined) return `Received ${value}`;
  if (typeof value === "function") return `Received function ${value.name}`;
  if (typeof value === "object") {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== ""
      ? `Received an instance of ${name}`
      : "Received [object]";
  }
  const shown = typeof value === "bigint" ? `${value}n` : String(value);
  return `Received type ${typeof value} (${shown})`;
}
