// A DataView exported by a module, for import-cost.bench.mjs to reach through an import.
export const importedView = new DataView(new ArrayBuffer(1024));
