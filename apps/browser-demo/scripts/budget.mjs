// The browser size budget of raf + bits + the OPFS backend, gzipped (see the README's "In the browser").
// Measured 20,153 bytes gzipped (72,222 minified) when set; the budget leaves ~10% for growth.
export const GZIP_BUDGET = 22_528;
