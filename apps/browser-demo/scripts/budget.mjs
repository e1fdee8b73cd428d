// The browser size budget of raf + bits + the OPFS backend, gzipped (see the README's "In the browser").
// Measured 20,153 bytes gzipped (72,222 minified) when set at 22,528. Raised to 23 KiB on 2026-12-02 for raf's
// window pool and its guards against re-entrant closes (+277 bytes: 22,386 -> 22,663 gzipped, 79,964 minified).
export const GZIP_BUDGET = 23_552;
