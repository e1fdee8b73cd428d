// The messages between the demo page and its inspector worker.

/** What the page asks the worker. */
export type Request =
  | { readonly type: "open"; readonly file: File }
  | {
      readonly type: "look";
      readonly offset: number;
      readonly kind: string;
      readonly order: "big" | "little";
    };

/** A constant-pool entry, as shown: its index, tag name and decoded text. */
export interface PoolEntry {
  readonly index: number;
  readonly tag: string;
  readonly text: string;
}

/** What the worker answers. */
export type Reply =
  | { readonly type: "opened"; readonly name: string; readonly size: number }
  | { readonly type: "looked"; readonly value: string; readonly hex: string }
  | { readonly type: "class"; readonly header: string; readonly pool: readonly PoolEntry[] }
  | {
      readonly type: "scan";
      readonly done: number;
      readonly size: number;
      readonly newlines: number;
      readonly zeros: number;
    }
  | { readonly type: "error"; readonly message: string };
