import { describe, expect, test } from "bun:test";
import { formatBytes, formatBytesCompact, formatCount, formatDuration, formatLoad, formatPercent, formatRate, secondsSince, usageLevel } from "./format";

describe("formatBytes", () => {
  test("whole bytes below 1 KiB, then IEC units with one decimal", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(5 * 1024 ** 2)).toBe("5.0 MiB");
    expect(formatBytes(16 * 1024 ** 3 * 0.75)).toBe("12.0 GiB");
    expect(formatBytes(2 * 1024 ** 4)).toBe("2.0 TiB");
  });
  test("rounding never prints 1024 of a unit", () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe("1.0 MiB");
    expect(formatBytes(1023.96 * 1024)).toBe("1.0 MiB");
  });
  test("digits, negative values and missing values", () => {
    expect(formatBytes(1536, 2)).toBe("1.50 KiB");
    expect(formatBytes(1536, 0)).toBe("2 KiB");
    expect(formatBytes(-2048)).toBe("-2.0 KiB");
    expect(formatBytes(null)).toBe("-");
    expect(formatBytes(undefined)).toBe("-");
    expect(formatBytes(Number.NaN)).toBe("-");
    expect(formatBytes(null, 1, "—")).toBe("—");
  });
});

test("formatBytesCompact drops trailing zeros (axis ticks)", () => {
  expect(formatBytesCompact(512 * 1024)).toBe("512 KiB");
  expect(formatBytesCompact(1.5 * 1024 ** 2)).toBe("1.5 MiB");
  expect(formatBytesCompact(1.25 * 1024 ** 3)).toBe("1.25 GiB");
  expect(formatBytesCompact(100)).toBe("100 B");
  expect(formatBytesCompact(0)).toBe("0 B");
  expect(formatBytesCompact(null)).toBe("-");
});

test("formatRate appends /s", () => {
  expect(formatRate(0)).toBe("0 B/s");
  expect(formatRate(1536)).toBe("1.5 KiB/s");
  expect(formatRate(125 * 1024 ** 2)).toBe("125.0 MiB/s");
  expect(formatRate(null)).toBe("-");
});

test("formatPercent, formatLoad and formatCount", () => {
  expect(formatPercent(42.345)).toBe("42.3%");
  expect(formatPercent(100)).toBe("100.0%");
  expect(formatPercent(7, 0)).toBe("7%");
  expect(formatPercent(null)).toBe("-");
  expect(formatLoad(0.5)).toBe("0.50");
  expect(formatLoad(12.345)).toBe("12.35");
  expect(formatLoad(undefined)).toBe("-");
  expect(formatCount(1234567, "en-US")).toBe("1,234,567");
  expect(formatCount(null)).toBe("-");
});

describe("formatDuration", () => {
  test("the two largest units, the second left out when zero", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(12)).toBe("12s");
    expect(formatDuration(12.9)).toBe("12s");
    expect(formatDuration(60)).toBe("1m");
    expect(formatDuration(75)).toBe("1m 15s");
    expect(formatDuration(3600)).toBe("1h");
    expect(formatDuration(7205)).toBe("2h");
    expect(formatDuration(3 * 3600 + 4 * 60 + 5)).toBe("3h 4m");
    expect(formatDuration(86_400 + 3600 + 61)).toBe("1d 1h");
    expect(formatDuration(45 * 86_400 + 59)).toBe("45d");
  });
  test("translated units and missing values", () => {
    expect(formatDuration(90_061, { d: "天", h: "小时", m: "分", s: "秒" })).toBe("1天 1小时");
    expect(formatDuration(12, { d: " d", h: " h", m: " min", s: " s" })).toBe("12 s");
    expect(formatDuration(null)).toBe("-");
    expect(formatDuration(-5)).toBe("-");
  });
});

test("secondsSince never goes negative", () => {
  expect(secondsSince(1_000, 13_500)).toBe(12);
  expect(secondsSince(20_000, 10_000)).toBe(0);
});

test("usageLevel: ok below 75, warn below 90, critical from 90", () => {
  expect(usageLevel(0)).toBe("ok");
  expect(usageLevel(74.9)).toBe("ok");
  expect(usageLevel(75)).toBe("warn");
  expect(usageLevel(89.9)).toBe("warn");
  expect(usageLevel(90)).toBe("critical");
  expect(usageLevel(null)).toBe("ok");
});
