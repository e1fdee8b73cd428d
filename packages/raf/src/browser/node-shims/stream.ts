// `node:stream` in a browser: raf's Node streams are not available there (use the read methods, or Blob streams).
function unavailable(): never {
  const error = new Error(
    "createReadStream/createWriteStream need Node.js streams: not available in a browser",
  );
  (error as Error & { code: string }).code = "ERR_RAFKIT_NO_STREAMS";
  throw error;
}

/** Throws: Node streams do not exist in a browser. */
export class Readable {
  constructor() {
    unavailable();
  }
}

/** Throws: Node streams do not exist in a browser. */
export class Writable {
  constructor() {
    unavailable();
  }
}
