import { expect, test } from "bun:test";
import { isActivePath } from "./nav";

test("a link is active on its path and below it, not on a mere prefix", () => {
  expect(isActivePath("/monitors", "/monitors")).toBe(true);
  expect(isActivePath("/monitors/12", "/monitors")).toBe(true);
  expect(isActivePath("/monitors/edit/3", "/monitors")).toBe(true);
  expect(isActivePath("/monitorsx", "/monitors")).toBe(false);
  expect(isActivePath("/status", "/status/config")).toBe(false);
  expect(isActivePath("/dashboard", "/monitors")).toBe(false);
});
