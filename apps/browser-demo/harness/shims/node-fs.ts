// `node:fs` for raf's interop log code in the browser: its logs are texts kept in memory (the runner sends
// the JDK's in and takes rafkit's out), so the Node test's code runs unchanged.
/** The log texts by the path the interop code names them with. */
export const logs = new Map<string, string>();

export function readFileSync(path: string): string {
  const text = logs.get(path);
  if (text === undefined) throw new Error(`no log ${path}`);
  return text;
}

export function writeFileSync(path: string, text: string): void {
  logs.set(path, text);
}
