// Every message in one script: a walk over every event kind, every monitor type and agent event, alone and grouped,
// in both languages. en-US may hold no CJK; zh-CN no Latin words but proper names and values (the target's own
// name, URL, host, address; HTTP, DNS, TCP, TLS, JSON, UTC, CPU, record types, status classes like 2xx).
import { PROTOCOLS } from "../monitors/check-errors";
import { describe, expect, test } from "bun:test";
import {
  locationsDownError,
  pingLossError,
  CHECK_ERROR_TEXT,
  dnsEmptyError,
  dnsNotFoundError,
  dnsUnexpectedError,
  jsonFalseError,
  jsonMissingError,
  keywordMissingError,
  pushMissedError,
  statusError,
  timeoutError,
  tlsExpiresSoonError,
  tooSlowError,
} from "../monitors/check-errors";
import { DNS_RECORD_TYPES } from "../monitors/public";
import { renderMessage } from "./messages";
import type { NotificationEvent, NotificationLanguage } from "./public";

const at = Date.UTC(2026, 10, 23, 3, 4, 5);
const monitorName = "Shop API";
const agentName = "db-1";

/** Each monitor type's facts as the monitors service states them, and a failure of that type. */
const MONITORS: { facts: NotificationEvent["facts"]; error: string }[] = [
  { facts: { checkType: "http", url: "https://shop.example.com/health", keyword: "OK", jsonPath: "$.status" }, error: statusError(503, "2xx,301") },
  { facts: { checkType: "tcp", url: "db.internal:5432", port: 5432 }, error: CHECK_ERROR_TEXT.REFUSED },
  { facts: { checkType: "dns", url: "app.example.com AAAA", record: "AAAA", resolver: "9.9.9.9" }, error: dnsEmptyError("AAAA", "app.example.com") },
  { facts: { checkType: "push", url: "", lastPushAt: at - 3_600_000 }, error: pushMissedError(300, 60) },
  { facts: { checkType: "push", url: "", lastPushAt: null }, error: pushMissedError(300, 60) },
  { facts: { checkType: "ping", url: "10.0.0.1", packets: 3 }, error: pingLossError(67, 1, 3) },
  // Checked from several locations: each one's own error is translated inside the sentence.
  { facts: { checkType: "http", url: "https://shop.example.com/" }, error: locationsDownError(2, 3, `Vigil (${CHECK_ERROR_TEXT.REFUSED}), Tokyo (${timeoutError(30)})`) },
];

/** Every error sentence with a translation (the raw details of OTHER, TLS_OTHER, DNS_FAILED are the cause's own words). */
const ERRORS = [
  ...Object.values(CHECK_ERROR_TEXT),
  timeoutError(10),
  statusError(500, "200"),
  tooSlowError(2340, 1000),
  keywordMissingError("OK"),
  jsonMissingError("$.status"),
  jsonFalseError('$.status == "ok"', '"error"'),
  tlsExpiresSoonError(7),
  dnsNotFoundError("app.example.com"),
  dnsUnexpectedError("10.0.0.1", ["10.0.0.2"]),
  locationsDownError(1, 2, `Frankfurt (${statusError(503, "2xx")})`),
];

const monitorTarget = { type: "monitor" as const, id: 1, name: monitorName };
const agentTarget = { type: "agent" as const, id: 2, name: agentName };

function allEvents(): NotificationEvent[] {
  const events: NotificationEvent[] = [];
  for (const { facts, error } of MONITORS) {
    events.push({ kind: "down", target: monitorTarget, time: at, facts: { ...facts, error, httpStatus: 503, responseTime: 1234 } });
    events.push({ kind: "recovery", target: monitorTarget, time: at, facts: { ...facts, httpStatus: 200, responseTime: 87, downtimeSeconds: 3_725 } });
  }
  for (const error of ERRORS) events.push({ kind: "down", target: monitorTarget, time: at, facts: { checkType: "http", url: "https://shop.example.com/", error } });
  events.push({ kind: "reminder", target: monitorTarget, time: at, facts: { downtimeSeconds: 90_061 } });
  events.push({ kind: "offline", target: agentTarget, time: at, facts: { lastSeenAt: at - 45_000, address: "203.0.113.7" } });
  events.push({ kind: "offline", target: agentTarget, time: at, facts: { lastSeenAt: null, address: null } });
  events.push({ kind: "online", target: agentTarget, time: at, facts: { downtimeSeconds: 52 } });
  for (const kind of ["cpu", "memory"] as const) events.push({ kind, target: agentTarget, time: at, facts: { hostname: "db-1.internal", usage: 97.5, threshold: 90 } });
  events.push({ kind: "disk", target: agentTarget, time: at, facts: { hostname: "db-1.internal", usage: 95, threshold: 90, mountPoint: "/var/lib" } });
  events.push({ kind: "test", target: { type: "channel", id: 3, name: "Ops Slack" }, time: at, facts: {} });
  return events;
}

/** The values a message repeats as they are: names, targets, hosts, addresses, mount points, keywords, paths. */
const VALUES = [monitorName, agentName, "Ops Slack", "https://shop.example.com/health", "https://shop.example.com/", "db.internal:5432",
  "app.example.com AAAA", "app.example.com", "db-1.internal", "/var/lib", '"OK"', "OK", "$.status", '"ok"', '"error"', "Tokyo", "Frankfurt"];
// Protocol and product names stay as they are written (STARTTLS, Chromium, PostgreSQL…).
const ALLOWED_LATIN = new Set(["HTTP", "DNS", "TCP", "TLS", "JSON", "UTC", "CPU", "Vigil", "xx", "ping", "Ping", "ICMP", "IPv", "STARTTLS", ...PROTOCOLS, ...DNS_RECORD_TYPES]);
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

function texts(events: NotificationEvent[], lang: NotificationLanguage): string[] {
  const m = renderMessage(events, lang, "Asia/Shanghai");
  return [m.title, ...m.lines];
}

function latinWords(text: string): string[] {
  let rest = text;
  for (const v of [...VALUES].sort((a, b) => b.length - a.length)) rest = rest.split(v).join(" ");
  return (rest.match(/[A-Za-z]+/g) ?? []).filter((w) => !ALLOWED_LATIN.has(w));
}

describe("every message is in one script", () => {
  const events = allEvents();
  const batches = [...events.map((e) => [e]), events];

  test("en-US: no Chinese in any title or line", () => {
    const found = batches.flatMap((b) => texts(b, "en-US")).filter((line) => CJK.test(line));
    expect(found).toEqual([]);
  });

  test("zh-CN: no English words beside names, values and protocol names", () => {
    const found = batches.flatMap((b) => texts(b, "zh-CN")).filter((line) => latinWords(line).length > 0);
    expect(found).toEqual([]);
  });

  test("zh-CN states push monitors, units and agent facts in Chinese", () => {
    const lines = events.flatMap((e) => texts([e], "zh-CN"));
    expect(lines).toContain("类型: 推送");
    expect(lines).toContain("响应时间: 1234 毫秒");
    expect(lines).toContain("最后上报: 2026-11-23 11:03:20 (UTC+08:00)");
    expect(lines).toContain("来源地址: 203.0.113.7");
    expect(lines).toContain("故障时长: 1小时 2分");
  });
});

describe("the server as a location", () => {
  const down = (error: string): NotificationEvent => ({ kind: "down", target: monitorTarget, time: at, facts: { checkType: "http", url: "https://shop.example.com/", error } });
  const text = (error: string, lang: NotificationLanguage) => texts([down(error)], lang).join("\n");

  test("an alert names it as the UI does: Vigil server, Vigil 服务器", () => {
    const error = locationsDownError(2, 3, `Vigil (${CHECK_ERROR_TEXT.REFUSED}), Tokyo (${timeoutError(30)})`);
    expect(text(error, "en-US")).toContain("Down from 2 of 3 locations: Vigil server (Connection refused), Tokyo (");
    expect(text(error, "zh-CN")).toContain("3 个位置中有 2 个判定故障：Vigil 服务器（连接被拒绝），Tokyo（");
  });

  test("without an error of its own too; an agent's name is kept as it is", () => {
    expect(text(locationsDownError(2, 2, "Vigil, Tokyo"), "en-US")).toContain("Down from 2 of 2 locations: Vigil server, Tokyo");
    expect(text(locationsDownError(1, 2, `Vigilant (${CHECK_ERROR_TEXT.REFUSED})`), "en-US")).toContain("Down from 1 of 2 locations: Vigilant (Connection refused)");
  });
});
