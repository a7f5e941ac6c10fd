import { describe, expect, test } from "bun:test";
import type { StatusMonitor, StatusPageConfig } from "../../api/status";
import { moveId, toggleId } from "../../components/TargetPicker";
import { configDraft, configInput, firstNames, sameConfig, sameMonitor, validateConfig } from "./model";

const config: StatusPageConfig = {
  title: "Acme",
  description: "",
  monitorIds: [3, 1],
  agentIds: [],
  announcement: { severity: "warning", text: "Maintenance", updatedAt: 1 },
  publicUrl: "http://localhost:3000/status",
  updatedAt: 1,
};

describe("the configuration draft", () => {
  test("round-trips a saved configuration; a blank announcement is none; texts are trimmed", () => {
    const draft = configDraft(config);
    expect(configInput(draft)).toEqual({ title: "Acme", description: "", monitorIds: [3, 1], agentIds: [], announcement: { severity: "warning", text: "Maintenance" } });
    expect(configInput({ ...draft, title: "  Acme  ", announcement: "   " })).toMatchObject({ title: "Acme", announcement: null });
    expect(configDraft({ ...config, announcement: null })).toMatchObject({ severity: "info", announcement: "" });
  });

  test("the server's limits, on the trimmed texts", () => {
    const draft = configDraft(config);
    expect(validateConfig(draft)).toEqual({});
    expect(validateConfig({ ...draft, title: "x".repeat(100) })).toEqual({});
    expect(validateConfig({ ...draft, title: ` ${"x".repeat(100)} ` })).toEqual({});
    expect(validateConfig({ ...draft, title: "x".repeat(101) })).toEqual({ title: "statusConfig.errors.titleTooLong" });
    expect(validateConfig({ ...draft, description: "x".repeat(501) })).toEqual({ description: "statusConfig.errors.descriptionTooLong" });
    expect(validateConfig({ ...draft, announcement: "x".repeat(1001) })).toEqual({ announcement: "statusConfig.errors.announcementTooLong" });
    expect(validateConfig({ ...draft, agentIds: Array.from({ length: 501 }, (_, i) => i + 1) })).toEqual({ agentIds: "statusConfig.errors.tooMany" });
  });

  test("unsaved changes: only what would be saved counts", () => {
    const draft = configDraft(config);
    expect(sameConfig(draft, { ...draft, title: "Acme " })).toBe(true);
    expect(sameConfig(draft, { ...draft, monitorIds: [1, 3] })).toBe(false);
    // The severity of an empty announcement is not saved.
    expect(sameConfig({ ...draft, announcement: "" }, { ...draft, announcement: "", severity: "outage" })).toBe(true);
  });

  test("toggling appends at the end or removes; moving swaps neighbours and ignores the ends", () => {
    expect(toggleId([1, 2], 3, true)).toEqual([1, 2, 3]);
    expect(toggleId([1, 2], 2, true)).toEqual([1, 2]);
    expect(toggleId([1, 2, 3], 2, false)).toEqual([1, 3]);
    expect(moveId([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(moveId([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moveId([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveId([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });
});

describe("the public page", () => {
  const monitor = (): StatusMonitor => ({
    id: 1,
    name: "API",
    status: "up",
    uptime: { day: 100, month: 99.5, quarter: null },
    days: [
      { date: 0, checks: 0, maintenance: 0, availability: null, avgResponseTime: null },
      { date: 86_400_000, checks: 10, maintenance: 0, availability: 90, avgResponseTime: 120 },
    ],
    responseTimes: { times: [0, 3_600_000], values: [null, 12] },
  });

  test("a row re-renders only when something it shows changed", () => {
    expect(sameMonitor(monitor(), monitor())).toBe(true);
    const changed = [
      (m: StatusMonitor) => (m.status = "down"),
      (m: StatusMonitor) => (m.uptime.quarter = 50),
      (m: StatusMonitor) => (m.days[1].checks = 11),
      (m: StatusMonitor) => (m.days[1].avgResponseTime = null),
      (m: StatusMonitor) => (m.responseTimes.values[0] = 3),
      (m: StatusMonitor) => m.days.pop(),
    ];
    for (const change of changed) {
      const m = monitor();
      change(m);
      expect(sameMonitor(monitor(), m)).toBe(false);
    }
  });

  test("the banner's names: the first few and how many more", () => {
    const items = ["a", "b", "c", "d", "e", "f", "g"].map((name) => ({ name }));
    expect(firstNames(items.slice(0, 2))).toEqual({ names: ["a", "b"], more: 0 });
    expect(firstNames(items)).toEqual({ names: ["a", "b", "c", "d", "e"], more: 2 });
  });
});
