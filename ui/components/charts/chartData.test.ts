import { describe, expect, test } from "bun:test";
import { axisSize, CHART_COLORS, chartColor, failureMarkers, fitPercentRange, hasData, isolatedIndexes, tickFormat, tickLabels, toAlignedData, yRange } from "./chartData";

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

describe("tickLabels: no two ticks of an axis read the same", () => {
  const S = 1000;
  const M = 60 * S;
  const H = 60 * M;
  const D = 24 * H;
  // uPlot's time steps, and its rule: the smallest step that leaves `space` (70 px) between ticks.
  const STEPS = [S, 5 * S, 10 * S, 15 * S, 30 * S, M, 5 * M, 10 * M, 15 * M, 30 * M, H, 2 * H, 3 * H, 4 * H, 6 * H, 8 * H, 12 * H, D, 2 * D, 3 * D, 4 * D, 5 * D, 7 * D, 10 * D, 15 * D, 30 * D];
  const ticks = (from: number, to: number, width: number) => {
    const step = STEPS.find((st) => (st / (to - from)) * width >= 70) ?? 30 * D;
    const out: number[] = [];
    for (let at = Math.ceil(from / step) * step; at <= to; at += step) out.push(at);
    return { step, out };
  };
  const RANGES = { "1h": H, "24h": D, "7d": 7 * D, "30d": 30 * D };
  for (const [range, span] of Object.entries(RANGES)) {
    test(`${range} at every chart width, in both languages`, () => {
      // Windows ending on a midnight and mid-day, so a tick at both ends of a day would show up.
      for (const to of [Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 23, 13, 37)]) {
        for (const width of [200, 320, 390, 600, 900, 1400]) {
          const { step, out } = ticks(to - span, to, width);
          for (const locale of ["zh-CN", "en-US"]) {
            const labels = tickLabels(out, span, locale, step);
            expect(new Set(labels).size).toBe(labels.length);
          }
        }
      }
    });
  }
  test("the usual format when it is unique, a finer one when it repeats", () => {
    const day = Date.UTC(2026, 0, 15);
    // Half-day ticks over two days: "00:00" twice in hours and minutes, so the date joins in.
    const twoDays = [0, 12, 24, 36, 48].map((h) => day + h * H);
    const labels = tickLabels(twoDays, 2 * D, "en-US", 12 * H);
    expect(new Set(labels).size).toBe(5);
    expect(labels[0]).not.toBe(new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", hour12: false }).format(twoDays[0]));
    // The first of January in two years: the year joins in.
    const years = [Date.UTC(2025, 0, 1, 12), Date.UTC(2026, 0, 1, 12)];
    expect(tickLabels(years, 400 * D, "en-US", 365 * D)).toEqual(["1/1/2025", "1/1/2026"]);
    // Unique already: unchanged.
    expect(tickLabels([day, day + H], 2 * H, "en-US", H)).toEqual(["00:00", "01:00"]);
  });
});

describe("fitPercentRange", () => {
  test("fits the data, rounded out to fives, at least 10 points tall", () => {
    expect(fitPercentRange(40.2, 41.1, 90)).toEqual([35, 45]);
    expect(fitPercentRange(20, 60, 90)).toEqual([10, 70]);
    expect(fitPercentRange(0, 1, 90)).toEqual([0, 10]);
    expect(fitPercentRange(99, 100, 90)).toEqual([90, 100]);
  });
  test("brings the threshold into view when the data comes within 15 points of it", () => {
    expect(fitPercentRange(70, 76, 90)).toEqual([65, 95]);
    expect(fitPercentRange(70, 74, 90)).toEqual([65, 80]);
    expect(fitPercentRange(88, 92, 90)).toEqual([85, 95]);
  });
  test("no data: the whole 0-100", () => {
    expect(fitPercentRange(null, null, 90)).toEqual([0, 100]);
  });
});

test("failureMarkers: a marker on the baseline wherever a check (or part of an hour) failed", () => {
  expect(failureMarkers([1, 0, null, 0.5, 1])).toEqual([null, 0, null, 0, null]);
});

test("a sparse series keeps undefined (joined across) apart from null (a break), and isolated points look past it", () => {
  const sparse = { label: "x", color: "#000", values: [1, undefined, null, undefined, 3] as (number | null)[], sparse: true };
  expect(toAlignedData([1_000, 2_000, 3_000, 4_000, 5_000], [sparse])).toEqual([[1, 2, 3, 4, 5], [1, undefined, null, undefined, 3]]);
  expect(isolatedIndexes([1, undefined, null, undefined, 3])).toEqual([0, 4]);
  expect(isolatedIndexes([1, undefined, undefined, 2, null, 4])).toEqual([5]);
});
