// `node:worker_threads` in a browser: a worker's files are not closed at its end by raf (the browser drops its
// handles when the worker goes), so every context behaves as Node's main thread does here.
/** Always true in a browser (see above). */
export const isMainThread = true;
