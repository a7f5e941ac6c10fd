// Quiet hours as pure functions: which events matter, when a period holds an instant and until when (wrapping
// midnight, weekdays, the wall clock across daylight-saving changes), joined periods, and the input's checks.
import { describe, expect, test } from "bun:test";
import { HttpError } from "../http/errors";
import type { NotificationEvent, QuietHours } from "./public";
import { heldUntil, importanceOf, quietUntil, validQuietHours } from "./quiet-hours";

const utc = (iso: string) => Date.parse(`${iso}Z`);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 16));
const q = (over: Partial<QuietHours> = {}): QuietHours => ({ from: "22:00", to: "07:00", timeZone: "UTC", holdDown: false, ...over });
const event = (kind: NotificationEvent["kind"], facts: NotificationEvent["facts"] = {}) => ({ kind, facts });

describe("importance", () => {
  test("down, offline, their recoveries and reminders are high; everything else low", () => {
    for (const kind of ["down", "recovery", "reminder", "offline", "online"] as const) expect(importanceOf(event(kind))).toBe("high");
    for (const kind of ["cpu", "memory", "disk", "container", "budget", "test"] as const) expect(importanceOf(event(kind))).toBe("low");
  });

  test("a monitor down only because its certificate expires soon is a certificate warning: low", () => {
    expect(importanceOf(event("down", { errorCode: "TLS_EXPIRES_SOON", error: "TLS certificate expires in 20 days" }))).toBe("low");
    expect(importanceOf(event("reminder", { errorCode: "TLS_EXPIRES_SOON" }))).toBe("low");
    // An expired certificate breaks the site: that is down.
    expect(importanceOf(event("down", { errorCode: "TLS_EXPIRED" }))).toBe("high");
  });
});

describe("quietUntil", () => {
  // 2026-01-05 is a Monday.
  test("22:00-07:00 wraps midnight: quiet from 22:00 (inclusive) to 07:00 (exclusive)", () => {
    const rule = q();
    expect(iso(quietUntil(rule, utc("2026-01-05T21:59:59")))).toBeNull();
    expect(iso(quietUntil(rule, utc("2026-01-05T22:00")))).toBe("2026-01-06T07:00");
    expect(iso(quietUntil(rule, utc("2026-01-05T23:30")))).toBe("2026-01-06T07:00");
    expect(iso(quietUntil(rule, utc("2026-01-06T06:59")))).toBe("2026-01-06T07:00");
    expect(quietUntil(rule, utc("2026-01-06T07:00"))).toBeNull();
    expect(quietUntil(rule, utc("2026-01-06T12:00"))).toBeNull();
  });

  test("a period within a day", () => {
    const rule = q({ from: "12:00", to: "13:30" });
    expect(quietUntil(rule, utc("2026-01-05T11:59"))).toBeNull();
    expect(iso(quietUntil(rule, utc("2026-01-05T12:00")))).toBe("2026-01-05T13:30");
    expect(quietUntil(rule, utc("2026-01-05T13:30"))).toBeNull();
  });

  test("days are the weekdays a period starts on: Friday night's runs into Saturday morning", () => {
    const rule = q({ days: [5] });
    expect(iso(quietUntil(rule, utc("2026-01-09T23:00")))).toBe("2026-01-10T07:00"); // Friday night
    expect(iso(quietUntil(rule, utc("2026-01-10T03:00")))).toBe("2026-01-10T07:00"); // Saturday, before 07:00
    expect(quietUntil(rule, utc("2026-01-10T23:00"))).toBeNull(); // Saturday night: not a Friday
    expect(quietUntil(rule, utc("2026-01-08T03:00"))).toBeNull(); // Thursday morning: Wednesday's night is not quiet
  });

  test("from = to is the whole day; whole days in a row are one wait", () => {
    const weekend = q({ from: "00:00", to: "00:00", days: [6, 7] });
    expect(iso(quietUntil(weekend, utc("2026-01-10T10:00")))).toBe("2026-01-11T00:00");
    expect(iso(heldUntil([weekend], "low", utc("2026-01-10T10:00")))).toBe("2026-01-12T00:00");
    expect(quietUntil(weekend, utc("2026-01-12T00:00"))).toBeNull();
  });

  test("wall time in the zone: a night over the spring change is an hour shorter, over the autumn one an hour longer", () => {
    const berlin = q({ timeZone: "Europe/Berlin" });
    // 2026-03-29 02:00 → 03:00 in Berlin: 22:00 CET (21:00Z) to 07:00 CEST (05:00Z), 8 hours.
    expect(quietUntil(berlin, utc("2026-03-28T20:59"))).toBeNull();
    expect(iso(quietUntil(berlin, utc("2026-03-28T21:00")))).toBe("2026-03-29T05:00");
    expect(quietUntil(berlin, utc("2026-03-29T05:00"))).toBeNull();
    // 2026-10-25 03:00 → 02:00: 22:00 CEST (20:00Z) to 07:00 CET (06:00Z), 10 hours.
    expect(iso(quietUntil(berlin, utc("2026-10-24T20:00")))).toBe("2026-10-25T06:00");
    expect(iso(quietUntil(berlin, utc("2026-10-25T05:59")))).toBe("2026-10-25T06:00");
    // The night after: back to 9 hours in winter time.
    expect(iso(quietUntil(berlin, utc("2026-10-25T21:00")))).toBe("2026-10-26T06:00");
  });

  test("an edge in the skipped hour moves forward with the clock", () => {
    // 02:30 does not exist in Berlin on 2026-03-29: the period starts at 03:30 CEST (01:30Z).
    const rule = q({ from: "02:30", to: "06:00", timeZone: "Europe/Berlin" });
    expect(quietUntil(rule, utc("2026-03-29T01:29"))).toBeNull();
    expect(iso(quietUntil(rule, utc("2026-03-29T01:30")))).toBe("2026-03-29T04:00");
  });

  test("another zone: New York's 22:00 is 03:00 UTC in winter", () => {
    const rule = q({ timeZone: "America/New_York", days: [1] });
    expect(iso(quietUntil(rule, utc("2026-01-06T03:00")))).toBe("2026-01-06T12:00"); // Monday 22:00 EST
    expect(quietUntil(rule, utc("2026-01-06T02:59"))).toBeNull();
  });
});

describe("heldUntil", () => {
  test("low waits; high passes unless the rule holds down alerts too", () => {
    const at = utc("2026-01-05T23:00");
    expect(iso(heldUntil([q()], "low", at))).toBe("2026-01-06T07:00");
    expect(heldUntil([q()], "high", at)).toBeNull();
    expect(iso(heldUntil([q({ holdDown: true })], "high", at))).toBe("2026-01-06T07:00");
    expect(heldUntil([q()], "low", utc("2026-01-05T12:00"))).toBeNull();
  });

  test("quiet when either rule says so, until neither does; absent rules are none", () => {
    const channel = q();
    const person = q({ from: "06:00", to: "08:00" });
    expect(iso(heldUntil([channel, person], "low", utc("2026-01-05T23:00")))).toBe("2026-01-06T08:00");
    expect(iso(heldUntil([null, person, undefined], "low", utc("2026-01-06T07:30")))).toBe("2026-01-06T08:00");
    // Only the person holds down alerts: a high event waits for theirs alone.
    expect(heldUntil([channel, { ...person, holdDown: false }], "high", utc("2026-01-06T06:30"))).toBeNull();
    expect(iso(heldUntil([channel, { ...person, holdDown: true }], "high", utc("2026-01-06T06:30")))).toBe("2026-01-06T08:00");
  });
});

describe("validQuietHours", () => {
  const problem = (raw: unknown) => {
    try {
      validQuietHours(raw);
      return null;
    } catch (e) {
      expect(e).toBeInstanceOf(HttpError);
      expect((e as HttpError).status).toBe(400);
      expect((e as HttpError).code).toBe("QUIET_HOURS_INVALID");
      return (e as HttpError).message;
    }
  };

  test("none, and a rule cleaned", () => {
    expect(validQuietHours(null)).toBeNull();
    expect(validQuietHours(undefined)).toBeNull();
    expect(validQuietHours({ from: "22:00", to: "07:00", timeZone: "Asia/Shanghai" })).toEqual({ from: "22:00", to: "07:00", timeZone: "Asia/Shanghai", holdDown: false });
    expect(validQuietHours({ from: "00:00", to: "00:00", timeZone: "UTC", days: [7, 6, 6], holdDown: true })).toEqual({ from: "00:00", to: "00:00", timeZone: "UTC", days: [6, 7], holdDown: true });
    // Every day named is every day.
    expect(validQuietHours({ ...q(), days: [1, 2, 3, 4, 5, 6, 7] })).toEqual(q());
  });

  test("each wrong part is named", () => {
    expect(problem("22:00-07:00")).toContain("must be an object");
    expect(problem([])).toContain("must be an object");
    expect(problem({ ...q(), from: "24:00" })).toContain("quietHours.from must be a time of day as HH:MM");
    expect(problem({ ...q(), to: "7:00" })).toContain("quietHours.to must be a time of day");
    expect(problem({ ...q(), timeZone: "Mars/Olympus" })).toContain("quietHours.timeZone must be an IANA time zone");
    expect(problem({ ...q(), days: [] })).toContain("quietHours.days must be weekdays 1 (Monday) to 7 (Sunday)");
    expect(problem({ ...q(), days: [0, 1] })).toContain("quietHours.days");
    expect(problem({ ...q(), days: [1.5] })).toContain("quietHours.days");
    expect(problem({ ...q(), holdDown: "yes" })).toContain("quietHours.holdDown must be true or false");
    expect(problem({ ...q(), until: "08:00" })).toContain("quietHours.until is not a setting");
    expect(problem({ ...q(), from: "08:00", to: "08:00" })).toContain("would always be quiet");
  });
});
