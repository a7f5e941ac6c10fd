import { describe, expect, test } from "bun:test";
import { nextChange, occurrenceAt, occurrencesAfter, scheduleError, type Schedule } from "./schedule";

// Maintenance schedules against fixed instants (no clock): daylight-saving changes in several zones, windows across
// midnight, month ends, cron expressions, boundaries, early ends, active ranges, and the messages for bad input.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (iso: string) => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`);
  return ms;
};
/** An instant as local time with its offset, read by Temporal: "2026-03-29T03:00:00+02:00". */
const local = (ms: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toString().replace(/\[.*\]$/, "");
const base: Schedule = { kind: "daily", startsAt: null, endsAt: null, time: "02:00", weekdays: [], monthDays: [], cron: null, durationMinutes: 60, timezone: "UTC", activeFrom: null, activeUntil: null };
const schedule = (over: Partial<Schedule>): Schedule => ({ ...base, ...over });
/** The starts of the next n occurrences not ended at `from`, as local times in the schedule's zone. */
const starts = (s: Schedule, from: string, n: number) => occurrencesAfter(s, at(from), n).map((o) => local(o.start, s.timezone));

describe("daylight saving", () => {
  const sundays = schedule({ kind: "weekly", weekdays: [7], time: "02:00", durationMinutes: 120, timezone: "Europe/Berlin" });

  test("Sundays 02:00-04:00 Europe/Berlin: 02:00 local before and after each change", () => {
    // Spring forward on 2026-03-29: 02:00 does not exist, so that Sunday starts at 03:00 CEST (02:00 moved by the gap).
    expect(starts(sundays, "2026-03-20T00:00:00Z", 3)).toEqual(["2026-03-22T02:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-04-05T02:00:00+02:00"]);
    expect(occurrencesAfter(sundays, at("2026-03-20T00:00:00Z"), 3).map((o) => o.start)).toEqual([at("2026-03-22T01:00:00Z"), at("2026-03-29T01:00:00Z"), at("2026-04-05T00:00:00Z")]);
    // Fall back on 2026-10-25: 02:00 happens twice; the window starts once, at the first (still CEST).
    expect(starts(sundays, "2026-10-17T00:00:00Z", 3)).toEqual(["2026-10-18T02:00:00+02:00", "2026-10-25T02:00:00+02:00", "2026-11-01T02:00:00+01:00"]);
  });

  test("the duration is elapsed time: two hours even when the clock jumps", () => {
    const [spring] = occurrencesAfter(sundays, at("2026-03-28T00:00:00Z"), 1);
    expect([local(spring.start, "Europe/Berlin"), local(spring.end!, "Europe/Berlin")]).toEqual(["2026-03-29T03:00:00+02:00", "2026-03-29T05:00:00+02:00"]);
    const [autumn] = occurrencesAfter(sundays, at("2026-10-24T00:00:00Z"), 1);
    expect([local(autumn.start, "Europe/Berlin"), local(autumn.end!, "Europe/Berlin")]).toEqual(["2026-10-25T02:00:00+02:00", "2026-10-25T03:00:00+01:00"]);
    // In progress through the repeated hour (02:30 CET is its second pass), over at 03:00 CET.
    expect(occurrenceAt(sundays, at("2026-10-25T01:30:00Z"))?.start).toBe(autumn.start);
    expect(occurrenceAt(sundays, at("2026-10-25T02:00:00Z"))).toBeNull();
    expect(nextChange(sundays, at("2026-10-25T01:30:00Z"))).toBe(at("2026-10-25T02:00:00Z"));
  });

  test("a start in the skipped hour moves forward by the gap; one in the repeated hour starts once, at the first", () => {
    const s = schedule({ time: "02:30", timezone: "Europe/Berlin" });
    expect(starts(s, "2026-03-28T00:00:00Z", 3)).toEqual(["2026-03-28T02:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00"]);
    expect(starts(s, "2026-10-24T00:00:00Z", 3)).toEqual(["2026-10-24T02:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"]);
    // Asked at the second 02:15 (CET), the hour that started at the first 02:30 (CEST) is still running and ends at
    // 02:30 CET; the second 02:30 starts nothing.
    expect(occurrenceAt(s, at("2026-10-25T01:15:00Z"))?.start).toBe(at("2026-10-25T00:30:00Z"));
    expect(nextChange(s, at("2026-10-25T01:15:00Z"))).toBe(at("2026-10-25T01:30:00Z"));
    expect(nextChange(s, at("2026-10-25T01:30:00Z"))).toBe(at("2026-10-26T01:30:00Z"));
  });

  test("daily 01:30 America/New_York across both changes", () => {
    const s = schedule({ time: "01:30", timezone: "America/New_York" });
    expect(starts(s, "2026-03-07T00:00:00Z", 3)).toEqual(["2026-03-07T01:30:00-05:00", "2026-03-08T01:30:00-05:00", "2026-03-09T01:30:00-04:00"]);
    // 2026-11-01 01:30 happens twice (EDT, then EST): once, the first.
    expect(starts(s, "2026-10-31T00:00:00Z", 3)).toEqual(["2026-10-31T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"]);
    expect(occurrencesAfter(s, at("2026-10-31T00:00:00Z"), 3).map((o) => o.start)).toEqual([at("2026-10-31T05:30:00Z"), at("2026-11-01T05:30:00Z"), at("2026-11-02T06:30:00Z")]);
    // 02:30 does not exist on 2026-03-08: 03:30 EDT.
    expect(starts(schedule({ time: "02:30", timezone: "America/New_York" }), "2026-03-08T00:00:00Z", 1)).toEqual(["2026-03-08T03:30:00-04:00"]);
  });

  test("Asia/Shanghai has no daylight saving: always +08:00", () => {
    const s = schedule({ kind: "weekly", weekdays: [7], time: "02:00", timezone: "Asia/Shanghai" });
    // Sunday 02:00 +08:00 is Saturday 18:00Z, the week of Berlin's change and the week after alike.
    expect(occurrencesAfter(s, at("2026-03-01T00:00:00Z"), 6).map((o) => o.start)).toEqual(
      ["2026-03-07", "2026-03-14", "2026-03-21", "2026-03-28", "2026-04-04", "2026-04-11"].map((d) => at(`${d}T18:00:00Z`)),
    );
    expect(starts(s, "2026-10-20T00:00:00Z", 2)).toEqual(["2026-10-25T02:00:00+08:00", "2026-11-01T02:00:00+08:00"]);
  });

  test("cron follows the same rule: skipped times move forward, repeated ones count once", () => {
    const every30 = schedule({ kind: "cron", cron: "*/30 * * * *", durationMinutes: 10, timezone: "Europe/Berlin" });
    // 02:00 and 02:30 do not exist: they land on 03:00 and 03:30, which start once each.
    expect(starts(every30, "2026-03-29T00:15:00Z", 4)).toEqual(["2026-03-29T01:30:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T03:30:00+02:00", "2026-03-29T04:00:00+02:00"]);
    // The repeated hour: 02:00 and 02:30 once (CEST), then 03:00 CET.
    expect(starts(every30, "2026-10-24T23:45:00Z", 4)).toEqual(["2026-10-25T02:00:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T03:00:00+01:00", "2026-10-25T03:30:00+01:00"]);
    expect(starts(schedule({ kind: "cron", cron: "30 2 * * 0", timezone: "Europe/Berlin" }), "2026-03-28T00:00:00Z", 2)).toEqual(["2026-03-29T03:30:00+02:00", "2026-04-05T02:30:00+02:00"]);
  });

  test("starts stay in order when a moved time lands after a later real one (Lord Howe's half-hour change)", () => {
    // 2026-10-04 02:00 → 02:30: 02:15 does not exist and lands on 02:45, after 02:40.
    const s = schedule({ kind: "cron", cron: "15,40 2 * * *", durationMinutes: 1, timezone: "Australia/Lord_Howe" });
    expect(starts(s, "2026-10-03T12:00:00Z", 4)).toEqual(["2026-10-04T02:40:00+11:00", "2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00", "2026-10-05T02:40:00+11:00"]);
  });

  test("a skipped day (Samoa, 2011-12-30): its start lands on the next day's and starts once", () => {
    const s = schedule({ time: "10:00", timezone: "Pacific/Apia" });
    expect(starts(s, "2011-12-28T00:00:00Z", 4)).toEqual(["2011-12-28T10:00:00-10:00", "2011-12-29T10:00:00-10:00", "2011-12-31T10:00:00+14:00", "2012-01-01T10:00:00+14:00"]);
  });
});

describe("occurrences", () => {
  test("a window across midnight; start inclusive, end exclusive", () => {
    const s = schedule({ time: "23:00", durationMinutes: 120, timezone: "Europe/Berlin" });
    const start = at("2026-01-05T22:00:00Z"); // 23:00 local
    const end = at("2026-01-06T00:00:00Z"); // 01:00 local, the next day
    expect(occurrenceAt(s, start - 1)).toBeNull();
    expect(occurrenceAt(s, start)).toEqual({ start, end });
    expect(occurrenceAt(s, at("2026-01-05T23:30:00Z"))).toEqual({ start, end }); // 00:30 local, the next day
    expect(occurrenceAt(s, end - 1)).toEqual({ start, end });
    expect(occurrenceAt(s, end)).toBeNull();
    expect(nextChange(s, start - 1)).toBe(start);
    expect(nextChange(s, start)).toBe(end);
    expect(nextChange(s, end)).toBe(start + DAY);
  });

  test("nextChange steps through a week of a weekly window: start, end, start, end", () => {
    const s = schedule({ kind: "weekly", weekdays: [1, 4], time: "10:00", durationMinutes: 30, timezone: "Europe/Berlin" });
    let t = at("2026-01-04T00:00:00Z"); // a Sunday
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      t = nextChange(s, t)!;
      seen.push(`${local(t, s.timezone)} ${occurrenceAt(s, t) ? "on" : "off"}`);
    }
    expect(seen).toEqual([
      "2026-01-05T10:00:00+01:00 on",
      "2026-01-05T10:30:00+01:00 off",
      "2026-01-08T10:00:00+01:00 on",
      "2026-01-08T10:30:00+01:00 off",
      "2026-01-12T10:00:00+01:00 on",
      "2026-01-12T10:30:00+01:00 off",
    ]);
  });

  test("occurrences longer than the period overlap: in progress while any is; the one that started last answers", () => {
    const s = schedule({ time: "00:00", durationMinutes: 36 * 60 });
    expect(occurrenceAt(s, at("2026-01-06T06:00:00Z"))).toEqual({ start: at("2026-01-06T00:00:00Z"), end: at("2026-01-07T12:00:00Z") });
    expect(occurrencesAfter(s, at("2026-01-06T06:00:00Z"), 2).map((o) => o.start)).toEqual([at("2026-01-05T00:00:00Z"), at("2026-01-06T00:00:00Z")]);
    // The earlier one's end may change nothing, but it is a change in what is running: reported.
    expect(nextChange(s, at("2026-01-06T06:00:00Z"))).toBe(at("2026-01-06T12:00:00Z"));
    expect(nextChange(s, at("2026-01-06T12:00:00Z"))).toBe(at("2026-01-07T00:00:00Z"));
  });

  test("month ends: the 31st skips short months, the last day is always there, leap years", () => {
    const on = (monthDays: number[], from: string, n: number) => starts(schedule({ kind: "monthly", monthDays }), from, n).map((s) => s.slice(0, 10));
    expect(on([31], "2026-01-01T00:00:00Z", 5)).toEqual(["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31"]);
    expect(on([-1], "2026-01-01T00:00:00Z", 4)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
    expect(on([-1], "2028-02-01T00:00:00Z", 1)).toEqual(["2028-02-29"]);
    expect(on([29, 30, 31], "2026-02-01T00:00:00Z", 2)).toEqual(["2026-03-29", "2026-03-30"]); // none in February 2026
    expect(on([29, 30, 31], "2028-02-01T00:00:00Z", 2)).toEqual(["2028-02-29", "2028-03-29"]);
    expect(on([-1, 31], "2026-01-01T00:00:00Z", 2)).toEqual(["2026-01-31", "2026-02-28"]); // the same day counts once
    expect(on([1, 15], "2026-01-10T00:00:00Z", 3)).toEqual(["2026-01-15", "2026-02-01", "2026-02-15"]);
  });

  test("cron expressions in a zone; day-of-month and day-of-week together match either (Vixie cron)", () => {
    expect(starts(schedule({ kind: "cron", cron: "30 2 * * 1-5", timezone: "Europe/Berlin" }), "2026-01-02T00:00:00Z", 3)).toEqual([
      "2026-01-02T02:30:00+01:00", // Friday
      "2026-01-05T02:30:00+01:00", // Monday
      "2026-01-06T02:30:00+01:00",
    ]);
    expect(starts(schedule({ kind: "cron", cron: "30 2 * * 1-5", timezone: "America/New_York" }), "2026-03-06T12:00:00Z", 2)).toEqual(["2026-03-09T02:30:00-04:00", "2026-03-10T02:30:00-04:00"]);
    expect(starts(schedule({ kind: "cron", cron: "0 */6 * * *" }), "2026-01-01T00:30:00Z", 4)).toEqual(["2026-01-01T00:00:00+00:00", "2026-01-01T06:00:00+00:00", "2026-01-01T12:00:00+00:00", "2026-01-01T18:00:00+00:00"]);
    // The 13th or a Friday.
    expect(starts(schedule({ kind: "cron", cron: "0 0 13 * 5" }), "2026-01-01T00:00:00Z", 3).map((s) => s.slice(0, 10))).toEqual(["2026-01-02", "2026-01-09", "2026-01-13"]);
    // A wildcard in one of them leaves the other alone: every Friday, every 13th.
    expect(starts(schedule({ kind: "cron", cron: "0 0 * * 5" }), "2026-01-10T00:00:00Z", 1)).toEqual(["2026-01-16T00:00:00+00:00"]);
    expect(starts(schedule({ kind: "cron", cron: "0 0 13 * *" }), "2026-01-14T00:00:00Z", 1)).toEqual(["2026-02-13T00:00:00+00:00"]);
  });

  test("an early end (cutAt) ends the occurrence containing it there and leaves the next ones", () => {
    const s = schedule({ time: "10:00", durationMinutes: 120 });
    const cutAt = at("2026-01-05T10:30:00Z");
    expect(occurrenceAt(s, at("2026-01-05T10:29:00Z"), cutAt)).toEqual({ start: at("2026-01-05T10:00:00Z"), end: cutAt });
    expect(occurrenceAt(s, cutAt, cutAt)).toBeNull();
    expect(occurrenceAt(s, at("2026-01-05T11:00:00Z"), cutAt)).toBeNull();
    expect(nextChange(s, at("2026-01-05T10:10:00Z"), cutAt)).toBe(cutAt);
    expect(nextChange(s, cutAt, cutAt)).toBe(at("2026-01-06T10:00:00Z"));
    expect(occurrencesAfter(s, at("2026-01-05T09:00:00Z"), 2, cutAt)).toEqual([
      { start: at("2026-01-05T10:00:00Z"), end: cutAt },
      { start: at("2026-01-06T10:00:00Z"), end: at("2026-01-06T12:00:00Z") },
    ]);
    expect(occurrencesAfter(s, cutAt, 1, cutAt).map((o) => o.start)).toEqual([at("2026-01-06T10:00:00Z")]);
    expect(occurrenceAt(s, at("2026-01-06T10:30:00Z"), cutAt)?.end).toBe(at("2026-01-06T12:00:00Z"));
    // Cut at its very start: nothing of it is left.
    expect(occurrencesAfter(s, at("2026-01-05T09:00:00Z"), 1, at("2026-01-05T10:00:00Z")).map((o) => o.start)).toEqual([at("2026-01-06T10:00:00Z")]);
  });

  test("one-time windows: [startsAt, endsAt), an early end", () => {
    const start = at("2026-01-05T10:00:00Z");
    const end = at("2026-01-05T11:00:00Z");
    const once = schedule({ kind: "once", startsAt: start, endsAt: end });
    expect(occurrenceAt(once, start - 1)).toBeNull();
    expect(occurrenceAt(once, start)).toEqual({ start, end });
    expect(occurrenceAt(once, end)).toBeNull();
    expect(nextChange(once, start - HOUR)).toBe(start);
    expect(nextChange(once, start)).toBe(end);
    expect(nextChange(once, end)).toBeNull();
    expect(occurrencesAfter(once, start - HOUR, 5)).toEqual([{ start, end }]);
    expect(occurrencesAfter(once, end, 5)).toEqual([]);
    const cutAt = start + 20 * MIN;
    expect(occurrenceAt(once, cutAt - 1, cutAt)).toEqual({ start, end: cutAt });
    expect(occurrenceAt(once, cutAt, cutAt)).toBeNull();
    expect(nextChange(once, start, cutAt)).toBe(cutAt);
    expect(nextChange(once, cutAt, cutAt)).toBeNull();
  });

  test("manual windows: open until ended; ended by endsAt or cutAt", () => {
    const start = at("2026-01-05T10:00:00Z");
    const manual = schedule({ kind: "manual", startsAt: start });
    expect(occurrenceAt(manual, start - 1)).toBeNull();
    expect(nextChange(manual, start - 1)).toBe(start);
    expect(occurrenceAt(manual, at("2030-01-01T00:00:00Z"))).toEqual({ start, end: null });
    expect(nextChange(manual, start)).toBeNull();
    expect(occurrencesAfter(manual, at("2030-01-01T00:00:00Z"), 3)).toEqual([{ start, end: null }]);
    const ended = { ...manual, endsAt: at("2026-01-05T12:00:00Z") };
    expect(occurrenceAt(ended, at("2026-01-05T11:59:59Z"))).toEqual({ start, end: at("2026-01-05T12:00:00Z") });
    expect(nextChange(ended, start)).toBe(at("2026-01-05T12:00:00Z"));
    expect(occurrenceAt(ended, at("2026-01-05T12:00:00Z"))).toBeNull();
    expect(occurrencesAfter(ended, at("2026-01-05T12:00:00Z"), 3)).toEqual([]);
    const cutAt = at("2026-01-05T11:00:00Z");
    expect(occurrenceAt(manual, cutAt - 1, cutAt)).toEqual({ start, end: cutAt });
    expect(occurrenceAt(manual, cutAt, cutAt)).toBeNull();
    expect(nextChange(manual, start, cutAt)).toBe(cutAt);
  });

  test("activeFrom/activeUntil bound the starts", () => {
    const s = schedule({ time: "02:00", durationMinutes: 120, activeFrom: at("2026-01-03T02:00:00Z"), activeUntil: at("2026-01-05T02:00:00Z") });
    expect(starts(s, "2026-01-01T00:00:00Z", 5)).toEqual(["2026-01-03T02:00:00+00:00", "2026-01-04T02:00:00+00:00"]); // from inclusive, until exclusive
    expect(nextChange(s, at("2026-01-01T00:00:00Z"))).toBe(at("2026-01-03T02:00:00Z"));
    expect(occurrenceAt(s, at("2026-01-02T02:30:00Z"))).toBeNull(); // before activeFrom
    // The last start is before activeUntil; its occurrence runs to its end.
    const late = schedule({ ...s, activeUntil: at("2026-01-04T03:00:00Z") });
    expect(occurrenceAt(late, at("2026-01-04T03:30:00Z"))?.start).toBe(at("2026-01-04T02:00:00Z"));
    expect(nextChange(late, at("2026-01-04T03:30:00Z"))).toBe(at("2026-01-04T04:00:00Z"));
    expect(nextChange(late, at("2026-01-04T04:00:00Z"))).toBeNull();
    expect(occurrencesAfter(late, at("2026-01-04T04:00:00Z"), 3)).toEqual([]);
  });

  test("an impossible schedule ends its search: no occurrences, no change", () => {
    const feb30 = schedule({ kind: "cron", cron: "0 0 30 2 *" });
    expect(occurrencesAfter(feb30, at("2026-01-01T00:00:00Z"), 3)).toEqual([]);
    expect(occurrenceAt(feb30, at("2026-01-01T00:00:00Z"))).toBeNull();
    expect(nextChange(feb30, at("2026-01-01T00:00:00Z"))).toBeNull();
    const no31st = schedule({ kind: "monthly", monthDays: [31], activeUntil: at("2026-04-15T00:00:00Z") });
    expect(occurrencesAfter(no31st, at("2026-04-01T00:00:00Z"), 3)).toEqual([]);
    expect(nextChange(no31st, at("2026-04-01T00:00:00Z"))).toBeNull();
  });

  test("rare cron matches: a leap day years ahead is found; beyond the search, nextChange says when to ask again", () => {
    expect(nextChange(schedule({ kind: "cron", cron: "0 0 29 2 *" }), at("2028-03-01T00:00:00Z"))).toBe(at("2032-02-29T00:00:00Z"));
    // A February 29th that is a Friday (the fifth Friday of February): 2036, past the search from 2026.
    const rare = schedule({ kind: "cron", cron: "0 0 * 2 5#5" });
    const t = at("2026-12-01T00:00:00Z");
    expect(occurrencesAfter(rare, t, 1)).toEqual([]);
    const again = nextChange(rare, t)!;
    expect(again).toBeGreaterThan(t);
    expect(again).toBeLessThan(at("2036-02-29T00:00:00Z"));
    expect(occurrenceAt(rare, again)).toBeNull();
    expect(nextChange(rare, again)).toBe(at("2036-02-29T00:00:00Z"));
  });
});

describe("scheduleError", () => {
  test("a valid schedule of each kind", () => {
    expect(scheduleError(base)).toBeNull();
    expect(scheduleError(schedule({ kind: "weekly", weekdays: [1, 7], timezone: "Europe/Berlin" }))).toBeNull();
    expect(scheduleError(schedule({ kind: "monthly", monthDays: [-1, 1, 31] }))).toBeNull();
    expect(scheduleError(schedule({ kind: "cron", cron: "0 0 29 2 *", time: null }))).toBeNull();
    expect(scheduleError(schedule({ kind: "once", startsAt: 1, endsAt: 2 }))).toBeNull();
    expect(scheduleError(schedule({ kind: "manual", startsAt: 1 }))).toBeNull();
    expect(scheduleError(schedule({ durationMinutes: 10080, activeFrom: 1, activeUntil: 2 }))).toBeNull();
  });

  test("names what is wrong", () => {
    const cases: [Partial<Schedule>, string][] = [
      [{ timezone: "Mars/Base" }, 'Unknown time zone "Mars/Base"'],
      [{ timezone: "" }, 'Unknown time zone ""'],
      [{ kind: "once", startsAt: 1, endsAt: 2, timezone: "Mars/Base" }, 'Unknown time zone "Mars/Base"'],
      [{ time: "24:00" }, "Time must be HH:MM (00:00-23:59)"],
      [{ time: "7:5" }, "Time must be HH:MM (00:00-23:59)"],
      [{ time: "12:60" }, "Time must be HH:MM (00:00-23:59)"],
      [{ time: null }, "Time must be HH:MM (00:00-23:59)"],
      [{ durationMinutes: 0 }, "Duration must be 1-10080 minutes"],
      [{ durationMinutes: 10081 }, "Duration must be 1-10080 minutes"],
      [{ durationMinutes: 1.5 }, "Duration must be 1-10080 minutes"],
      [{ durationMinutes: null }, "Duration must be 1-10080 minutes"],
      [{ kind: "weekly", weekdays: [] }, "Choose at least one weekday"],
      [{ kind: "weekly", weekdays: [0] }, "Weekdays must be 1 (Monday) to 7 (Sunday), each once"],
      [{ kind: "weekly", weekdays: [1, 1] }, "Weekdays must be 1 (Monday) to 7 (Sunday), each once"],
      [{ kind: "monthly", monthDays: [] }, "Choose at least one day of the month"],
      [{ kind: "monthly", monthDays: [32] }, "Days of the month must be 1-31 or -1 (the last day), each once"],
      [{ kind: "monthly", monthDays: [0] }, "Days of the month must be 1-31 or -1 (the last day), each once"],
      [{ activeFrom: 10, activeUntil: 10 }, "activeUntil must be after activeFrom"],
      [{ kind: "once", startsAt: 10, endsAt: 10 }, "The end must be after the start"],
      [{ kind: "once", startsAt: 10 }, "An end time is required"],
      [{ kind: "once", endsAt: 10 }, "A start time is required"],
      [{ kind: "manual" }, "A start time is required"],
      [{ kind: "cron", cron: "0 0 30 2 *" }, "This cron expression never matches"],
      [{ kind: "cron", cron: "0 0 31 4,6,9,11 *" }, "This cron expression never matches"],
      [{ kind: "cron", cron: "61 * * * *" }, "Invalid cron expression: Invalid value for minute: 61"],
      [{ kind: "unknown" as never }, 'Unknown schedule kind "unknown"'],
    ];
    for (const [over, message] of cases) expect([over, scheduleError(schedule(over))]).toEqual([over, message]);
    for (const cron of ["not a cron", "0 0 * * * *", "", "0 0 * * 8"]) expect(scheduleError(schedule({ kind: "cron", cron }))).toStartWith("Invalid cron expression: ");
  });

  test("fields the kind does not use are not errors", () => {
    expect(scheduleError(schedule({ kind: "once", startsAt: 1, endsAt: 2, time: "bad", durationMinutes: null, weekdays: [9], activeFrom: 5, activeUntil: 1 }))).toBeNull();
    expect(scheduleError(schedule({ kind: "cron", cron: "0 3 * * *", time: "bad", monthDays: [99] }))).toBeNull();
    expect(scheduleError(schedule({ kind: "daily", weekdays: [], monthDays: [0], cron: "nonsense" }))).toBeNull();
  });
});
