import { describe, expect, test } from "bun:test";
import { buildSeries, rollUp } from "./series";

const row = (time: number, cpu: number, extra: Record<string, number> = {}) => ({ agentId: 1, time, avg: { cpu, ...extra }, max: { cpu: cpu + 1, ...extra } });
const MINUTE = 60_000;
const W = { from: 0, to: 3_600_000 };

describe("buildSeries", () => {
  test("columns per series, a null where a series is missing from a row", () => {
    const s = buildSeries("1h", [row(0, 10), row(10_000, 20, { "disk:/data": 5 })], 10_000, W);
    expect(s.step).toBe(0);
    expect(s.times).toEqual([0, 10_000]);
    expect(s.avg.cpu).toEqual([10, 20]);
    expect(s.max.cpu).toEqual([11, 21]);
    expect(s.avg["disk:/data"]).toEqual([null, 5]);
  });

  test("a hole longer than 3 intervals becomes a null point, so the chart breaks the line", () => {
    const s = buildSeries("1h", [row(0, 10), row(10_000, 20), row(10_000 + 31_000, 30)], 10_000, W);
    expect(s.times).toEqual([0, 10_000, 10_001, 41_000]);
    expect(s.avg.cpu).toEqual([10, 20, null, 30]);
    // 3 intervals exactly is late samples, not a hole.
    expect(buildSeries("1h", [row(0, 10), row(30_000, 20)], 10_000, W).avg.cpu).toEqual([10, 20]);
  });

  test("minute buckets: a hole is measured against the bucket or the agent's interval, whichever is longer", () => {
    // 10 s agent, minute buckets: 4 minutes without any is a hole.
    expect(buildSeries("24h", [row(0, 1), row(4 * MINUTE, 2)], 10_000, W).avg.cpu).toEqual([1, null, 2]);
    // An agent reporting every 5 minutes fills every fifth minute bucket: no holes.
    const sparse = [0, 5, 10, 15].map((m) => row(m * MINUTE, m));
    expect(buildSeries("24h", sparse, 5 * MINUTE, W).avg.cpu).toEqual([0, 5, 10, 15]);
    // ... until it misses three reports.
    expect(buildSeries("24h", [row(0, 1), row(16 * MINUTE, 2)], 5 * MINUTE, W).avg.cpu).toEqual([1, null, 2]);
  });

  test("no rows: empty columns", () => {
    expect(buildSeries("30d", [], 10_000, W)).toEqual({ range: "30d", step: 3_600_000, from: 0, to: 3_600_000, times: [], avg: {}, max: {} });
  });
});

test("rollUp averages each series over the rows that have it and keeps the maximum", () => {
  const r = rollUp([
    { avg: { cpu: 10, "disk:/": 50 }, max: { cpu: 15, "disk:/": 50 } },
    { avg: { cpu: 20 }, max: { cpu: 40 } },
  ]);
  expect(r.avg).toEqual({ cpu: 15, "disk:/": 50 });
  expect(r.max).toEqual({ cpu: 40, "disk:/": 50 });
});
