import { expect, test } from "bun:test";
import { availabilityLevel, countsLevel, LEVEL_COLOR, MOSTLY_DOWN_BELOW } from "./availability";

test("levels by availability: 100 % up, from 50 % some downtime, below 50 % mostly down", () => {
  expect(MOSTLY_DOWN_BELOW).toBe(50);
  expect([100, 99.99, 85, 50, 49.99, 1, 0].map((a) => availabilityLevel(a))).toEqual(["up", "degraded", "degraded", "degraded", "down", "down", "down"]);
});

test("a day 85 % up and a day 0 % up get different colours", () => {
  expect(LEVEL_COLOR[availabilityLevel(85)]).not.toBe(LEVEL_COLOR[availabilityLevel(0)]);
  expect(new Set(Object.values(LEVEL_COLOR)).size).toBe(Object.keys(LEVEL_COLOR).length);
});

test("no counted checks: maintenance when checks ran in maintenance, else no data; counted checks win over maintenance", () => {
  expect(availabilityLevel(null)).toBe("none");
  expect(availabilityLevel(null, 3)).toBe("maintenance");
  expect(availabilityLevel(Number.NaN)).toBe("none");
  expect(availabilityLevel(0, 3)).toBe("down");
});

test("from counts: every check up, at least half, under half, none", () => {
  expect(countsLevel(12, 12)).toBe("up");
  expect(countsLevel(12, 11)).toBe("degraded");
  expect(countsLevel(12, 6)).toBe("degraded");
  expect(countsLevel(12, 5)).toBe("down");
  expect(countsLevel(12, 0)).toBe("down");
  expect(countsLevel(0, 0)).toBe("none");
  expect(countsLevel(0, 0, 2)).toBe("maintenance");
  // A huge slot with one failure is not "all up", however close to 100 % it rounds.
  expect(countsLevel(10_000_000, 9_999_999)).toBe("degraded");
});
