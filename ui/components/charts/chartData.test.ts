import { describe, expect, test } from "bun:test";
import { axisSize, CHART_COLORS, chartColor, hasData, isolatedIndexes, tickFormat, toAlignedData, yRange } from "./chartData";

const s = (values: (number | null)[]) => ({ label: "x", color: "#000", values });

test("hasData needs a time and a finite value", () => {
  expect(hasData([], [s([])])).toBe(false);
  expect(hasData([1], [])).toBe(false);
  expect(hasData([1, 2], [s([null, null])])).toBe(false);
  expect(hasData([1, 2], [s([null, null]), s([null, 0])])).toBe(true);
  expect(hasData([1], [s([Number.NaN])])).toBe(false);
});

test("toAlignedData: x in seconds, every column as long as the times, gaps as null", () => {
  expect(toAlignedData([1_000, 2_000, 3_000], [s([1, null, 3]), s([5])])).toEqual([
    [1, 2, 3],
    [1, null, 3],
    [5, null, null],
  ]);
  expect(toAlignedData([1_000], [s([Number.POSITIVE_INFINITY])])).toEqual([[1], [null]]);
});

describe("yRange", () => {
  test("fixed bounds win", () => {
    expect(yRange(3, 40, 0, 100)).toEqual([0, 100]);
  });
  test("otherwise from 0 to 10 % above the maximum", () => {
    const [lo, hi] = yRange(2, 50);
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(55);
    expect(yRange(-5, 10)[0]).toBe(-5);
  });
  test("never an empty range", () => {
    expect(yRange(0, 0)).toEqual([0, 1]);
    expect(yRange(null, null)).toEqual([0, 1]);
    expect(yRange(5, 5, 10)).toEqual([10, 11]);
  });
});

test("tick labels are times of day up to two days, dates beyond", () => {
  const at = Date.UTC(2024, 0, 15, 13, 5);
  const day = tickFormat(3_600_000, "en-US").resolvedOptions();
  expect(day.hour).toBeDefined();
  expect(day.month).toBeUndefined();
  const week = tickFormat(7 * 86_400_000, "en-US").resolvedOptions();
  expect(week.month).toBeDefined();
  expect(week.hour).toBeUndefined();
  expect(tickFormat(7 * 86_400_000, "en-US").format(at)).toBe("1/15");
  // Ticks under a minute apart show seconds; under a day apart on a long span, the hour.
  const seconds = tickFormat(120_000, "en-US", 30_000).resolvedOptions();
  expect(seconds.second).toBeDefined();
  const hours = tickFormat(7 * 86_400_000, "en-US", 12 * 3_600_000).resolvedOptions();
  expect([hours.day !== undefined, hours.hour !== undefined, hours.minute]).toEqual([true, true, undefined]);
});

test("axisSize grows with the longest label and has a floor", () => {
  expect(axisSize([])).toBe(36);
  expect(axisSize(null)).toBe(36);
  expect(axisSize(["1.5 MiB/s", "500.0 KiB/s"])).toBeGreaterThan(axisSize(["10%"]));
});

test("chartColor cycles through the palette", () => {
  expect(chartColor(0)).toBe(CHART_COLORS[0]);
  expect(chartColor(CHART_COLORS.length + 1)).toBe(CHART_COLORS[1]);
  expect(chartColor(-1)).toBe(CHART_COLORS[CHART_COLORS.length - 1]);
});

test("isolatedIndexes finds values with no neighbour to draw a line to", () => {
  expect(isolatedIndexes([1, null, 2, 3, null, 4])).toEqual([0, 5]);
  expect(isolatedIndexes([null, 5, null, null, 6, 7])).toEqual([1]);
  expect(isolatedIndexes([1, 2, 3])).toEqual([]);
  expect(isolatedIndexes([null, null])).toEqual([]);
  expect(isolatedIndexes([7])).toEqual([0]);
  // Within the visible window, a neighbour outside it does not count: the line to it is not drawn either.
  expect(isolatedIndexes([1, 2, null, 3], 1, 3)).toEqual([1, 3]);
});
