// The global `Buffer` the interop log code uses for hex: `Buffer.from(bytes).toString("hex")`.
export const Buffer = {
  from(bytes: Uint8Array) {
    return {
      toString: () => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""),
    };
  },
};
