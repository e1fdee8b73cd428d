import { opfsCore } from "./core";

/** A request to the OPFS worker, and its answer: `result` (result-or-`-errno`) and any bytes read. @internal */
export interface OpfsRequest {
  readonly id: number;
  readonly op: "open" | "read" | "write" | "size" | "truncate" | "flush" | "close";
  readonly fd: number;
  readonly path?: string;
  readonly mode?: string;
  readonly bytes?: Uint8Array;
  readonly length?: number;
  readonly position?: number;
}

/** The worker's message loop, run from its source text (so self-contained too: `core` comes in). */
function serve(core: ReturnType<typeof opfsCore>): void {
  const scope = globalThis as unknown as {
    onmessage: (event: { data: OpfsRequest }) => void;
    postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  };
  scope.onmessage = async ({ data: r }) => {
    let result: number;
    let bytes: Uint8Array | undefined;
    switch (r.op) {
      case "open":
        result = await core.open(r.path!, r.mode as "r");
        break;
      case "read":
        bytes = new Uint8Array(r.length!);
        result = core.read(r.fd, bytes, r.position!);
        break;
      case "write":
        result = core.write(r.fd, r.bytes!, r.position!);
        break;
      case "size":
        result = core.size(r.fd);
        break;
      case "truncate":
        result = core.truncate(r.fd, r.length!);
        break;
      case "flush":
        result = core.flush(r.fd);
        break;
      default:
        result = core.close(r.fd);
    }
    scope.postMessage({ id: r.id, result, bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []);
  };
}

/** The source of a dedicated worker that owns OPFS sync handles and answers {@link OpfsRequest}s. @internal */
export function opfsWorkerSource(errno: Readonly<Record<string, number>>): string {
  return `(${serve.toString()})((${opfsCore.toString()})(${JSON.stringify(errno)}));`;
}
