import { describe, expect, test } from "bun:test";
import { nextChange, occurrenceAt, occurrencesAfter, scheduleError, type Schedule } from "./schedule";

// Maintenance schedules against fixed instants: daylight-saving changes in three zones, windows across midnight,
// month ends, cron expressions, early ends, active ranges, and the messages for bad input.

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (ms == null ? ms : new Date(ms).toISOString().replace(".000Z", "Z"));
const base: Schedule = { kind: "daily", startsAt: null, endsAt: null, time: "02:00", weekdays: [], monthDays: [], cron: null, durationMinutes: 60, timezone: "UTC", activeFrom: null, activeUntil: null };
const schedule = (over: Partial<Schedule>): Schedule => ({ ...base, ...over });
/** The starts of the next n occurrences from t, as ISO strings. */
const starts = (s: Schedule, from: string, n: number) => occurrencesAfter(s, at(from), n).map((o) => iso(o.start));

describe("daylight saving", () => {
  test("Sundays 02:00-04:00 Europe/Berlin stay 02:00 local on both sides of each change", () => {
    const s = schedule({ kind: "weekly", weekdays: [7], time: "02:00", durationMinutes: 120, timezone: "Europe/Berlin" });
    // Winter (+01:00), the spring-forward Sunday (02:00 does not exist: 03:00 CEST), summer (+02:00).
    expect(starts(s, "2026-03-20T00:00:00Z", 3)).toEqual(["2026-03-22T01:00:00Z", "2026-03-29T01:00:00Z", "2026-04-05T00:00:00Z"]);
    // The autumn Sunday: 02:00 happens twice; the window starts at the first (still CEST), then winter again.
    expect(starts(s, "2026-10-17T00:00:00Z", 3)).toEqual(["2026-10-18T00:00:00Z", "2026-10-25T00:00:00Z", "2026-11-01T01:00:00Z"]);
    const [autumn] = occurrencesAfter(s, at("2026-10-24T00:00:00Z"), 1);
    expect(autumn.end! - autumn.start).toBe(2 * HOUR); // elapsed time: two hours, whatever the clock says
  });

  test("a start in the skipped hour moves forward by the gap; one in the repeated hour starts once", () => {
    const s = schedule({ time: "02:30", timezone: "Europe/Berlin" });
    expect(starts(s, "2026-03-28T00:00:00Z", 3)).toEqual(["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"]);
    expect(starts(s, "2026-10-24T00:00:00Z", 3)).toEqual(["2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]);
  });

  test("daily 01:30 America/New_York across both changes", () => {
    const s = schedule({ time: "01:30", timezone: "America/New_York" });
    expect(starts(s, "2026-03-07T00:00:00Z", 3)).toEqual(["2026-03-07T06:30:00Z", "2026-03-08T06:30:00Z", "2026-03-09T05:30:00Z"]);
    // 2026-11-01 01:30 happens twice (EDT, then EST): the first.
    expect(starts(s, "2026-10-31T00:00:00Z", 3)).toEqual(["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]);
  });

  test("Asia/Shanghai has no daylight saving: always +08:00", () => {
    const s = schedule({ time: "02:00", timezone: "Asia/Shanghai" });
    expect(starts(s, "2026-03-27T00:00:00Z", 2)).toEqual(["2026-03-27T18:00:00Z", "2026-03-28T18:00:00Z"]);
    expect(starts(s, "2026-10-24T00:00:00Z", 2)).toEqual(["2026-10-24T18:00:00Z", "2026-10-25T18:00:00Z"]);
  });
});

describe("occurrences", () => {
  test("a window across midnight is in progress on both sides of it; start inclusive, end exclusive", () => {
    const s = schedule({ time: "23:00", durationMinutes: 120 });
    expect(occurrenceAt(s, at("2026-01-05T22:59:59Z"))).toBeNull();
    expect(occurrenceAt(s, at("2026-01-05T23:00:00Z"))).toEqual({ start: at("2026-01-05T23:00:00Z"), end: at("2026-01-06T01:00:00Z") });
    expect(occurrenceAt(s, at("2026-01-06T00:30:00Z"))?.start).toBe(at("2026-01-05T23:00:00Z"));
    expect(occurrenceAt(s, at("2026-01-06T01:00:00Z"))).toBeNull();
  });

  test("nextChange steps through a week of a weekly window: start, end, start, end", () => {
    const s = schedule({ kind: "weekly", weekdays: [1, 4], time: "10:00", durationMinutes: 30 });
    let t = at("2026-01-04T00:00:00Z"); // a Sunday
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      t = nextChange(s, t)!;
      seen.push(`${iso(t)} ${occurrenceAt(s, t) ? "on" : "off"}`);
    }
    expect(seen).toEqual(["2026-01-05T10:00:00Z on", "2026-01-05T10:30:00Z off", "2026-01-08T10:00:00Z on", "2026-01-08T10:30:00Z off"]);
  });

  test("month ends: the 31st skips short months, the last day is always there, leap years", () => {
    expect(starts(schedule({ kind: "monthly", monthDays: [31] }), "2026-01-01T00:00:00Z", 4)).toEqual([
      "2026-01-31T02:00:00Z",
      "2026-03-31T02:00:00Z",
      "2026-05-31T02:00:00Z",
      "2026-07-31T02:00:00Z",
    ]);
    const last = schedule({ kind: "monthly", monthDays: [-1] });
    expect(starts(last, "2026-01-01T00:00:00Z", 4)).toEqual(["2026-01-31T02:00:00Z", "2026-02-28T02:00:00Z", "2026-03-31T02:00:00Z", "2026-04-30T02:00:00Z"]);
    expect(starts(last, "2028-02-01T00:00:00Z", 1)).toEqual(["2028-02-29T02:00:00Z"]);
    expect(starts(schedule({ kind: "monthly", monthDays: [29, 30, 31] }), "2026-02-01T00:00:00Z", 2)).toEqual(["2026-03-29T02:00:00Z", "2026-03-30T02:00:00Z"]);
    // The last day and the 31st together fall once.
    expect(starts(schedule({ kind: "monthly", monthDays: [-1, 31] }), "2026-01-01T00:00:00Z", 2)).toEqual(["2026-01-31T02:00:00Z", "2026-02-28T02:00:00Z"]);
  });

  test("cron expressions in a zone; day-of-month and day-of-week together match either", () => {
    expect(starts(schedule({ kind: "cron", cron: "30 2 * * 1-5", timezone: "Europe/Berlin" }), "2026-01-02T00:00:00Z", 3)).toEqual([
      "2026-01-02T01:30:00Z", // Friday
      "2026-01-05T01:30:00Z", // Monday
      "2026-01-06T01:30:00Z",
    ]);
    expect(starts(schedule({ kind: "cron", cron: "0 */6 * * *" }), "2026-01-01T01:00:00Z", 3)).toEqual(["2026-01-01T06:00:00Z", "2026-01-01T12:00:00Z", "2026-01-01T18:00:00Z"]);
    // The 13th or a Friday (OR, as Vixie cron).
    expect(starts(schedule({ kind: "cron", cron: "0 0 13 * 5" }), "2026-01-01T00:00:00Z", 3)).toEqual(["2026-01-02T00:00:00Z", "2026-01-09T00:00:00Z", "2026-01-13T00:00:00Z"]);
    // Across Berlin's spring change, like the other kinds: 02:30 → 03:30 CEST.
    expect(starts(schedule({ kind: "cron", cron: "30 2 * * 0", timezone: "Europe/Berlin" }), "2026-03-28T00:00:00Z", 2)).toEqual(["2026-03-29T01:30:00Z", "2026-04-05T00:30:00Z"]);
  });

  test("an early end stops the occurrence in progress and leaves the next ones", () => {
    const s = schedule({ time: "10:00", durationMinutes: 120 });
    const cutAt = at("2026-01-05T10:30:00Z");
    expect(occurrenceAt(s, at("2026-01-05T10:29:00Z"), cutAt)?.end).toBe(cutAt);
    expect(occurrenceAt(s, cutAt, cutAt)).toBeNull();
    expect(nextChange(s, at("2026-01-05T10:10:00Z"), cutAt)).toBe(cutAt);
    expect(occurrencesAfter(s, cutAt, 1, cutAt).map((o) => iso(o.start))).toEqual(["2026-01-06T10:00:00Z"]);
  });

  test("one-time and manual windows; an ended manual window", () => {
    const once = schedule({ kind: "once", startsAt: at("2026-01-05T10:00:00Z"), endsAt: at("2026-01-05T11:00:00Z") });
    expect(occurrenceAt(once, at("2026-01-05T10:00:00Z"))).toEqual({ start: at("2026-01-05T10:00:00Z"), end: at("2026-01-05T11:00:00Z") });
    expect(nextChange(once, at("2026-01-05T09:00:00Z"))).toBe(at("2026-01-05T10:00:00Z"));
    expect(nextChange(once, at("2026-01-05T11:00:00Z"))).toBeNull();
    expect(occurrencesAfter(once, at("2026-01-05T11:00:00Z"), 5)).toEqual([]);
    const manual = schedule({ kind: "manual", startsAt: at("2026-01-05T10:00:00Z") });
    expect(occurrenceAt(manual, at("2030-01-01T00:00:00Z"))).toEqual({ start: at("2026-01-05T10:00:00Z"), end: null });
    expect(nextChange(manual, at("2026-01-05T12:00:00Z"))).toBeNull();
    const ended = { ...manual, endsAt: at("2026-01-05T12:00:00Z") };
    expect(occurrenceAt(ended, at("2026-01-05T12:00:00Z"))).toBeNull();
  });

  test("the active range bounds the starts", () => {
    const s = schedule({ time: "02:00", activeFrom: at("2026-01-03T00:00:00Z"), activeUntil: at("2026-01-05T00:00:00Z") });
    expect(starts(s, "2026-01-01T00:00:00Z", 5)).toEqual(["2026-01-03T02:00:00Z", "2026-01-04T02:00:00Z"]);
    expect(nextChange(s, at("2026-01-04T03:00:00Z"))).toBeNull();
  });

  test("an impossible schedule ends its search", () => {
    const feb30 = schedule({ kind: "cron", cron: "0 0 30 2 *" });
    expect(occurrencesAfter(feb30, at("2026-01-01T00:00:00Z"), 3)).toEqual([]);
    expect(nextChange(feb30, at("2026-01-01T00:00:00Z"))).toBeNull();
    expect(occurrencesAfter(schedule({ kind: "monthly", monthDays: [31], activeUntil: at("2026-04-15T00:00:00Z") }), at("2026-04-01T00:00:00Z"), 3)).toEqual([]);
  });

  test("occurrences longer than the period overlap: in progress while any is; the latest is the current one", () => {
    const s = schedule({ time: "00:00", durationMinutes: 36 * 60 });
    expect(occurrenceAt(s, at("2026-01-06T06:00:00Z"))?.start).toBe(at("2026-01-06T00:00:00Z"));
    expect(nextChange(s, at("2026-01-06T06:00:00Z"))).toBe(at("2026-01-06T12:00:00Z")); // the earlier one ends
    expect(occurrencesAfter(s, at("2026-01-06T06:00:00Z"), 2).map((o) => iso(o.start))).toEqual(["2026-01-05T00:00:00Z", "2026-01-06T00:00:00Z"]);
  });
});

describe("scheduleError", () => {
  test("names what is wrong", () => {
    expect(scheduleError(base)).toBeNull();
    const cases: [Partial<Schedule>, string][] = [
      [{ timezone: "Mars/Base" }, 'Unknown time zone "Mars/Base"'],
      [{ time: "24:00" }, "Time must be HH:MM (00:00-23:59)"],
      [{ time: "7:5" }, "Time must be HH:MM (00:00-23:59)"],
      [{ durationMinutes: 0 }, "Duration must be 1-10080 minutes"],
      [{ durationMinutes: 10081 }, "Duration must be 1-10080 minutes"],
      [{ kind: "weekly", weekdays: [] }, "Choose at least one weekday"],
      [{ kind: "weekly", weekdays: [0] }, "Weekdays must be 1 (Monday) to 7 (Sunday), each once"],
      [{ kind: "monthly", monthDays: [] }, "Choose at least one day of the month"],
      [{ kind: "monthly", monthDays: [32] }, "Days of the month must be 1-31 or -1 (the last day), each once"],
      [{ activeFrom: 10, activeUntil: 5 }, "activeUntil must be after activeFrom"],
      [{ kind: "once", startsAt: 10, endsAt: 5 }, "The end must be after the start"],
      [{ kind: "once", startsAt: 10 }, "An end time is required"],
      [{ kind: "manual" }, "A start time is required"],
      [{ kind: "cron", cron: "0 0 30 2 *" }, "This cron expression never matches"],
    ];
    for (const [over, message] of cases) expect(scheduleError(schedule(over))).toBe(message);
    expect(scheduleError(schedule({ kind: "cron", cron: "not a cron" }))).toStartWith("Invalid cron expression:");
    expect(scheduleError(schedule({ kind: "cron", cron: "0 0 * * * *" }))).toStartWith("Invalid cron expression:");
    // Fields the kind does not use are not errors.
    expect(scheduleError(schedule({ kind: "once", startsAt: 1, endsAt: 2, time: "bad", durationMinutes: null }))).toBeNull();
  });
});
