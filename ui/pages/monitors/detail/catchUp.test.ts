import { describe, expect, test } from "bun:test";
import { missesHeaderCheck } from "./catchUp";

describe("missesHeaderCheck", () => {
  test("a view read before the first check is fetched again once the header shows it", () => {
    expect(missesHeaderCheck(1000, null, null)).toBe(true);
  });

  test("a view older than the header's check is fetched again", () => {
    expect(missesHeaderCheck(2000, 1000, null)).toBe(true);
  });

  test("a view holding the header's check (or a later one) is left alone", () => {
    expect(missesHeaderCheck(2000, 2000, null)).toBe(false);
    expect(missesHeaderCheck(2000, 3000, null)).toBe(false);
  });

  test("no check in the header: nothing to catch up with", () => {
    expect(missesHeaderCheck(null, null, null)).toBe(false);
  });

  test("once per header check: a view still without it after a fetch waits for the next check", () => {
    expect(missesHeaderCheck(2000, 1000, 2000)).toBe(false);
    expect(missesHeaderCheck(3000, 1000, 2000)).toBe(true);
  });
});
