import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  // Until @rafkit/bits' browser build lands (it drops `node:buffer`), its one `isAscii` import comes from here.
  resolve: {
    alias: [
      {
        find: /^(node:)?buffer$/,
        replacement: fileURLToPath(new URL("harness/shims/bits-node-buffer.ts", import.meta.url)),
      },
    ],
  },
  worker: { format: "es" },
  build: { target: "es2022" },
  server: { host: "127.0.0.1" },
});
