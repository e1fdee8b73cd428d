import { expect, test } from "vitest";
import * as mod from "../src/index";

test("module loads", () => {
  expect(typeof mod).toBe("object");
});
