// The demo's Playwright cases (filled in with the demo): none yet.
export async function demoCases() {
  return [];
}
