import { describe, expect, test } from "bun:test";
import { formatWithZone, STYLE_OPTIONS } from "./time";

describe("formatWithZone", () => {
  const at = Date.UTC(2026, 10, 22, 6, 3, 5);
  test("names the zone and adds UTC", () => {
    const text = formatWithZone(at, "en-US", "Asia/Shanghai");
    expect(text).toContain("14:03:05");
    expect(text).toMatch(/GMT\+8/);
    expect(text).toEndWith("(UTC 2026-11-22 06:03:05)");
  });
  test("zh-CN", () => {
    const text = formatWithZone(at, "zh-CN", "Asia/Shanghai");
    expect(text).toContain("14:03:05");
    expect(text).toMatch(/GMT\+8|CST|\+8/);
  });
});

test("English dates and times are on the 24-hour clock like every other time on the page", () => {
  const at = Date.UTC(2026, 10, 22, 14, 3, 5);
  const text = new Intl.DateTimeFormat("en-US", { ...STYLE_OPTIONS.datetime, timeZone: "UTC" }).format(at);
  expect(text).toContain("14:03");
  expect(text).not.toMatch(/PM|AM/);
});
