import { expect, test } from "bun:test";
import type { ChannelHealth } from "../../../server/notifications/public";
import { DEFAULT_SETTINGS } from "../../../server/notifications/store";
import {
  agentDraft,
  channelHealth,
  agentSettings,
  eventKinds,
  isTimeZone,
  knownChannelIds,
  monitorDraft,
  monitorSettings,
  parseQuery,
  searchTargets,
  tabHref,
  validateAgentDraft,
  validateMonitorDraft,
} from "./model";

test("the tab and the chosen target come from the URL; anything unknown is the channels tab", () => {
  const none = { monitor: null, agent: null, policy: null };
  expect(parseQuery("")).toEqual({ tab: "channels", ...none });
  expect(parseQuery("?tab=global")).toEqual({ tab: "global", ...none });
  expect(parseQuery("tab=monitors&monitor=42")).toEqual({ tab: "monitors", ...none, monitor: 42 });
  expect(parseQuery("tab=agents&agent=7")).toEqual({ tab: "agents", ...none, agent: 7 });
  expect(parseQuery("tab=escalation&policy=5")).toEqual({ tab: "escalation", ...none, policy: 5 });
  expect(parseQuery("tab=escalation&policy=new")).toEqual({ tab: "escalation", ...none, policy: "new" });
  expect(parseQuery("tab=escalation&policy=old")).toEqual({ tab: "escalation", ...none });
  expect(parseQuery("tab=nope&monitor=0")).toEqual({ tab: "channels", ...none });
  expect(parseQuery("tab=monitors&monitor=-3")).toEqual({ tab: "monitors", ...none });
  expect(parseQuery("tab=monitors&monitor=1e3")).toEqual({ tab: "monitors", ...none });
});

test("tab links carry the chosen target of the tabs that have one", () => {
  expect(tabHref("channels")).toBe("/notifications?tab=channels");
  expect(tabHref("monitors", 3)).toBe("/notifications?tab=monitors&monitor=3");
  expect(tabHref("agents", 9)).toBe("/notifications?tab=agents&agent=9");
  expect(tabHref("escalation", "new")).toBe("/notifications?tab=escalation&policy=new");
  expect(tabHref("escalation", 4)).toBe("/notifications?tab=escalation&policy=4");
  expect(tabHref("global", 9)).toBe("/notifications?tab=global");
  expect(parseQuery(tabHref("monitors", 3).split("?")[1]!).monitor).toBe(3);
});

test("drafts round-trip the server's defaults", () => {
  expect(monitorSettings(monitorDraft(DEFAULT_SETTINGS.monitor))).toEqual(DEFAULT_SETTINGS.monitor);
  expect(agentSettings(agentDraft(DEFAULT_SETTINGS.agent))).toEqual(DEFAULT_SETTINGS.agent);
  expect(validateMonitorDraft(monitorDraft(DEFAULT_SETTINGS.monitor))).toEqual({});
  expect(validateAgentDraft(agentDraft(DEFAULT_SETTINGS.agent))).toEqual({});
});

test("reminders are whole minutes from 0 to a week", () => {
  const d = monitorDraft(DEFAULT_SETTINGS.monitor);
  for (const ok of ["0", "15", " 60 ", "10080"]) expect(validateMonitorDraft({ ...d, reminderMinutes: ok })).toEqual({});
  for (const bad of ["", "-1", "1.5", "10081", "abc"]) {
    expect(validateMonitorDraft({ ...d, reminderMinutes: bad })).toEqual({ reminderMinutes: "notifications.parts.reminderInvalid" });
  }
  expect(monitorSettings({ ...d, reminderMinutes: " 30" }).reminderMinutes).toBe(30);
});

test("thresholds are percentages from 1 to 100", () => {
  const d = agentDraft(DEFAULT_SETTINGS.agent);
  expect(validateAgentDraft({ ...d, thresholds: { cpu: "1", memory: "100", disk: "85.5" } })).toEqual({});
  expect(validateAgentDraft({ ...d, thresholds: { cpu: "0", memory: "101", disk: "" } })).toEqual({
    cpu: "notifications.parts.thresholdInvalid",
    memory: "notifications.parts.thresholdInvalid",
    disk: "notifications.parts.thresholdInvalid",
  });
  expect(agentSettings({ ...d, thresholds: { cpu: "80", memory: "85.5", disk: "95" } }).thresholds).toEqual({ cpu: 80, memory: 85.5, disk: 95 });
});

test("channels deleted meanwhile are dropped from a selection", () => {
  expect(knownChannelIds([1, 2, 3], new Set([1, 3]))).toEqual([1, 3]);
});

test("time zones are checked by Intl, as the server does", () => {
  expect(isTimeZone("Asia/Shanghai")).toBe(true);
  expect(isTimeZone("UTC")).toBe(true);
  expect(isTimeZone("Mars/Olympus")).toBe(false);
  expect(isTimeZone("")).toBe(false);
});

test("the target search matches every word, sorts by name and keeps at most the limit", () => {
  const items = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `svc-${String(i).padStart(4, "0")}`, url: `https://h${i % 10}.example.com` }));
  const all = searchTargets(items, "", (m) => m.url);
  expect(all.matched).toBe(5000);
  expect(all.shown.length).toBe(100);
  expect(all.shown[0].name).toBe("svc-0000");
  const some = searchTargets(items, "SVC-01 h3.", (m) => m.url);
  expect(some.shown.map((m) => m.name)).toEqual(["svc-0103", "svc-0113", "svc-0123", "svc-0133", "svc-0143", "svc-0153", "svc-0163", "svc-0173", "svc-0183", "svc-0193"]);
  expect(some.matched).toBe(10);
  expect(searchTargets(items, "nothing-like-this", (m) => m.url)).toEqual({ shown: [], matched: 0 });
});

test("a grouped message names each kind of event once", () => {
  expect(eventKinds([{ kind: "down" }, { kind: "down" }, { kind: "recovery" }])).toEqual(["down", "recovery"]);
});

test("a channel's health: a failed last send shows even before it counts as failing", () => {
  const health: ChannelHealth = { failing: false, consecutiveFailures: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null };
  const of = (h: Partial<ChannelHealth>, enabled = true) => channelHealth({ enabled, health: { ...health, ...h } });
  expect(of({})).toBe("idle");
  expect(of({ consecutiveFailures: 1, lastFailureAt: 5, lastError: "HTTP 404" })).toBe("failed");
  expect(of({ lastSuccessAt: 10, lastFailureAt: 5 })).toBe("working");
  expect(of({ lastSuccessAt: 10, lastFailureAt: 20, consecutiveFailures: 1 })).toBe("failed");
  expect(of({ failing: true, consecutiveFailures: 3, lastFailureAt: 20 })).toBe("failing");
  expect(of({ lastFailureAt: 20 }, false)).toBe("disabled");
});
