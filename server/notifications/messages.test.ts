import { expect, test } from "bun:test";
import { renderMessage } from "./messages";
import type { NotificationEvent } from "./public";

const at = Date.UTC(2026, 10, 23, 3, 4, 5);
const down = (facts: NotificationEvent["facts"]): NotificationEvent => ({ kind: "down", target: { type: "monitor", id: 1, name: "db" }, time: at, facts });

test("a tcp monitor's message names its type and host:port", () => {
  const m = renderMessage([down({ url: "db.internal:5432", checkType: "tcp", error: "connection refused" })], "en-US", "UTC");
  expect(m.lines).toEqual(expect.arrayContaining(["Type: TCP", "Target: db.internal:5432", "Reason: Connection refused"]));
});

test("a dns monitor's message names the record and resolver, in both languages", () => {
  const facts = { url: "app.test A", checkType: "dns" as const, record: "A", resolver: "9.9.9.9", error: "DNS: expected 10.0.0.1, got 10.0.0.2" };
  expect(renderMessage([down(facts)], "en-US", "UTC").lines).toEqual(
    expect.arrayContaining(["Type: DNS", "Record: A", "DNS server: 9.9.9.9", "Reason: DNS: expected 10.0.0.1, got 10.0.0.2"]),
  );
  expect(renderMessage([down(facts)], "zh-CN", "UTC").lines).toEqual(expect.arrayContaining(["类型: DNS", "记录: A", "DNS 服务器: 9.9.9.9"]));
});

test("an http monitor's message names its keyword; a push monitor's its last push (or never)", () => {
  const http = renderMessage([down({ url: "https://shop.test/", checkType: "http", keyword: "In stock", error: 'keyword "In stock" not found' })], "en-US", "UTC");
  expect(http.lines).toEqual(expect.arrayContaining(["URL: https://shop.test/", "Keyword: In stock", 'Reason: Keyword "In stock" not found']));
  expect(http.lines.some((l) => l.startsWith("Type:"))).toBe(false);
  const push = renderMessage([down({ url: "", checkType: "push", lastPushAt: at - 3_600_000, error: "no push within 60 min + 60 s" })], "en-US", "UTC");
  expect(push.lines).toEqual(expect.arrayContaining(["Type: Push", "Last push: 2026-11-23 02:04:05 (UTC+00:00)", "Reason: No push within 60 min + 60 s"]));
  const never = renderMessage([down({ url: "", checkType: "push", lastPushAt: null })], "zh-CN", "UTC");
  expect(never.lines).toContain("最后推送: 从未");
});

test("an alert with an acknowledgement link ends with it, in both languages; a storm's lines carry none", () => {
  const ackUrl = "https://vigil.example.com/ack/abc.def.ghi";
  expect(renderMessage([down({ url: "https://shop.test/", ackUrl })], "en-US", "UTC").lines.at(-1)).toBe(`Acknowledge: ${ackUrl}`);
  expect(renderMessage([down({ url: "https://shop.test/", ackUrl })], "zh-CN", "UTC").lines.at(-1)).toBe(`确认: ${ackUrl}`);
  expect(renderMessage([down({ url: "https://shop.test/" })], "en-US", "UTC").lines.some((l) => l.includes("Acknowledge"))).toBe(false);
  // Several events in one message: one line each (the webhook payload's events keep their own facts.ackUrl).
  const storm = renderMessage([down({ ackUrl }), down({ ackUrl: `${ackUrl}2` })], "en-US", "UTC");
  expect(storm.lines.some((l) => l.includes(ackUrl))).toBe(false);
});
