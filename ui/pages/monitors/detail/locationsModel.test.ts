import { beforeAll, describe, expect, test } from "bun:test";
import i18n, { type TFunction } from "i18next";
import { i18nOptions } from "../../../i18n";
import { translateCheckError } from "../checkError";
import { bucketMs, downFrom, gapMs, locationLines, locationProblem, shownStatus } from "./locationsModel";

describe("locationProblem: what the server would refuse, found before asking", () => {
  test("no location at all", () => {
    expect(locationProblem(false, [], "majority", "")).toBe("NO_LOCATION");
    expect(locationProblem(true, [], "majority", "")).toBeNull();
    expect(locationProblem(false, [3], "any", "")).toBeNull();
  });
  test("at least N needs N from 1 to the number of locations", () => {
    expect(locationProblem(true, [3], "count", "")).toBe("LOCATION_COUNT");
    expect(locationProblem(true, [3], "count", "0")).toBe("LOCATION_COUNT");
    expect(locationProblem(true, [3], "count", "3")).toBe("LOCATION_COUNT");
    expect(locationProblem(true, [3], "count", "1.5")).toBe("LOCATION_COUNT");
    expect(locationProblem(true, [3], "count", "2")).toBeNull();
    expect(locationProblem(true, [3], "all", "")).toBeNull();
  });
});

test("an offline agent shows no data, never down", () => {
  const base = { name: "tokyo", latest: null };
  expect(shownStatus({ ...base, agentId: 4, online: false, status: "down" })).toBe("no data");
  expect(shownStatus({ ...base, agentId: 4, online: true, status: "down" })).toBe("down");
  expect(shownStatus({ ...base, agentId: null, online: true, status: "up" })).toBe("up");
});

test("buckets and gaps follow the server's series and the monitor's interval", () => {
  expect(bucketMs("1h")).toBe(60_000);
  expect(bucketMs("24h")).toBe(180_000);
  expect(bucketMs("7d")).toBe(1_260_000);
  expect(gapMs("1h", 1)).toBe(150_000);
  expect(gapMs("1h", 10)).toBe(1_500_000);
});

describe("locationLines", () => {
  const M = 60_000;
  test("one time axis; each line has values at its own times and joins across the others'", () => {
    const { times, lines } = locationLines(
      [
        { agentId: null, name: "Vigil", points: [{ time: 0, up: true, responseTime: 10 }, { time: 2 * M, up: true, responseTime: 12 }] },
        { agentId: 4, name: "tokyo", points: [{ time: M, up: true, responseTime: 90 }] },
      ],
      5 * M,
      (s) => s.name,
    );
    expect(times).toEqual([0, M, 2 * M]);
    expect(lines.map((l) => [l.label, l.values, l.sparse])).toEqual([
      ["Vigil", [10, undefined, 12], true],
      ["tokyo", [undefined, 90, undefined], true],
    ]);
    expect(lines[0].color).not.toBe(lines[1].color);
  });
  test("a pause longer than the gap, or a check without a response time, breaks the line", () => {
    const { times, lines } = locationLines(
      [{ agentId: 4, name: "tokyo", points: [{ time: 0, up: true, responseTime: 10 }, { time: 10 * M, up: false, responseTime: null }, { time: 11 * M, up: true, responseTime: 30 }] }],
      3 * M,
      (s) => s.name,
    );
    expect(times).toEqual([0, 5 * M, 10 * M, 11 * M]);
    expect(lines[0].values).toEqual([10, null, null, 30]);
  });
});

describe("a combined down verdict in the reader's language", () => {
  beforeAll(async () => {
    await i18n.init({ ...i18nOptions, lng: "en-US", detection: undefined });
  });
  const message = "down from 2 of 3: Vigil (connection refused), tokyo (status 503, expected 2xx or 301)";
  test("each location's own error translated, the server named as the UI names it, agents' names kept", async () => {
    await i18n.changeLanguage("en-US");
    expect(translateCheckError(i18n.t as TFunction, message)).toBe("Down from 2 of 3 locations: Vigil server (Connection refused), tokyo (Status 503, expected 2xx or 301)");
    await i18n.changeLanguage("zh-CN");
    expect(translateCheckError(i18n.t as TFunction, message)).toBe("3 个位置中有 2 个判定故障：Vigil 服务器（连接被拒绝），tokyo（状态码 503，期望 2xx 或 301）");
  });
  test("names without an error, and errors with parentheses of their own", async () => {
    await i18n.changeLanguage("en-US");
    expect(translateCheckError(i18n.t as TFunction, "down from 2 of 2: Vigil, tokyo")).toBe("Down from 2 of 2 locations: Vigil server, tokyo");
    expect(translateCheckError(i18n.t as TFunction, 'down from 1 of 2: tokyo (JSON $.ok is false (got "no"))')).toBe('Down from 1 of 2 locations: tokyo (JSON $.ok is false (got "no"))');
  });
});

describe("downFrom: the locations that see it down among those that reported", () => {
  const at = (agentId: number | null, name: string, status: "up" | "down" | "no data", online = true) => ({ agentId, name, online, status, latest: null });
  const name = (l: { name: string }) => l.name;
  test("one of three down, whatever the verdict; an offline agent is not counted", () => {
    expect(downFrom([at(null, "Vigil", "up"), at(1, "frankfurt", "up"), at(2, "tokyo", "down")], name)).toEqual({ down: 1, total: 3, names: "tokyo" });
    expect(downFrom([at(null, "Vigil", "down"), at(1, "frankfurt", "down", false), at(2, "tokyo", "no data")], name)).toEqual({ down: 1, total: 1, names: "Vigil" });
  });
  test("none down: nothing to say", () => {
    expect(downFrom([at(null, "Vigil", "up"), at(2, "tokyo", "no data")], name)).toBeNull();
  });
});
