/** Names of the suites shipped with the package, each built to `dist/suites/<name>.js`. */
export const BUILTIN_SUITES: readonly string[] = ["harness"];

/** URL of a built-in suite module, resolved beside the running build. */
export function builtinSuiteUrl(name: string): string {
  return new URL(`./suites/${name}.js`, import.meta.url).href;
}
