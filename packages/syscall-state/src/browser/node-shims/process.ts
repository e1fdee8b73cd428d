// The few `process` members the shared sources touch, for a browser build (injected by tsup.browser.ts).
/** `process` in a browser: no environment, warnings on the console, no exit hooks. */
export const process = {
  platform: "browser",
  env: {} as Record<string, string | undefined>,
  emitWarning(message: string): void {
    console.warn(message);
  },
  once(): void {},
};
