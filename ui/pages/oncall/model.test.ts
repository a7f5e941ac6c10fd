import { describe, expect, test } from "bun:test";
import type { OnCallSchedule } from "../../api/oncall";
import { addDays, checkOverride, draftOf, emptyDraft, emptyOverride, inputOf, isDate, twoWeeks, validateDraft, whenOptions, type ScheduleDraft } from "./model";

const H = 3_600_000;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

const draft = (over: Partial<ScheduleDraft> = {}): ScheduleDraft => ({
  name: "Web",
  timeZone: "Europe/Berlin",
  rotation: "weekly",
  handoverTime: "09:00",
  handoverWeekday: "1",
  startDate: "2026-03-23",
  participants: [1, 2],
  ...over,
});

describe("the schedule form", () => {
  test("a good draft has no errors and sends what the server takes; a daily one sends no weekday", () => {
    expect(validateDraft(draft())).toEqual({});
    expect(inputOf(draft({ name: "  Web  " }))).toEqual({ name: "Web", timeZone: "Europe/Berlin", rotation: "weekly", handoverTime: "09:00", handoverWeekday: 1, startDate: "2026-03-23", participants: [1, 2] });
    expect(inputOf(draft({ rotation: "daily", handoverWeekday: "3" })).handoverWeekday).toBeNull();
  });

  test("each field's problem, by field", () => {
    expect(validateDraft(draft({ name: " " }))).toEqual({ name: "oncall.form.errors.nameRequired" });
    expect(validateDraft(draft({ name: "x".repeat(101) }))).toEqual({ name: "oncall.form.errors.nameTooLong" });
    expect(validateDraft(draft({ timeZone: "Mars/Olympus" }))).toEqual({ timeZone: "oncall.form.errors.zone" });
    expect(validateDraft(draft({ handoverTime: "" }))).toEqual({ handoverTime: "oncall.form.errors.time" });
    expect(validateDraft(draft({ handoverWeekday: "8" }))).toEqual({ handoverWeekday: "oncall.form.errors.weekday" });
    expect(validateDraft(draft({ rotation: "daily", handoverWeekday: "" }))).toEqual({});
    expect(validateDraft(draft({ startDate: "2026-02-30" }))).toEqual({ startDate: "oncall.form.errors.date" });
    expect(validateDraft(draft({ participants: [] }))).toEqual({ participants: "oncall.form.errors.noParticipants" });
    expect(validateDraft(draft({ participants: Array.from({ length: 51 }, (_, i) => i + 1) }))).toEqual({ participants: "oncall.form.errors.tooManyParticipants" });
  });

  test("a new draft starts today in its zone; an existing schedule reads back as it was", () => {
    // 23:30 UTC on 03-22 is already 03-23 in Berlin.
    expect(emptyDraft("Europe/Berlin", utc(2026, 3, 22, 23, 30))).toMatchObject({ timeZone: "Europe/Berlin", startDate: "2026-03-23", participants: [] });
    const s = { name: "Web", timeZone: "UTC", rotation: "daily", handoverTime: "18:30", handoverWeekday: null, startDate: "2026-01-01", participants: [{ id: 3, username: "c" }, { id: 1, username: "a" }] } as OnCallSchedule;
    expect(draftOf(s)).toEqual({ name: "Web", timeZone: "UTC", rotation: "daily", handoverTime: "18:30", handoverWeekday: "1", startDate: "2026-01-01", participants: [3, 1] });
  });

  test("dates", () => {
    expect(isDate("2028-02-29")).toBe(true);
    expect(isDate("2026-02-29")).toBe(false);
    expect(isDate("26-02-01")).toBe(false);
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});

describe("overrides as typed", () => {
  test("wall times read in the schedule's zone, not the browser's", () => {
    expect(checkOverride({ userId: "4", from: "2026-03-28T20:00", to: "2026-03-29T08:00" }, "Europe/Berlin")).toEqual({
      input: { userId: 4, startsAt: utc(2026, 3, 28, 19), endsAt: utc(2026, 3, 29, 6) }, // CET, then CEST after the change
      errors: null,
    });
    expect(checkOverride({ userId: "4", from: "2026-03-28T20:00", to: "2026-03-29T08:00" }, "America/New_York").input).toEqual({ userId: 4, startsAt: utc(2026, 3, 29, 0), endsAt: utc(2026, 3, 29, 12) });
  });

  test("what is wrong: no person, no time, the end not after the start, longer than a year", () => {
    expect(checkOverride({ userId: "", from: "", to: "2026-03-29T08:00" }, "UTC").errors).toEqual({ userId: "oncall.overrides.errors.person", from: "oncall.overrides.errors.time" });
    expect(checkOverride({ userId: "1", from: "2026-03-29T08:00", to: "2026-03-29T08:00" }, "UTC").errors).toEqual({ to: "oncall.overrides.errors.order" });
    expect(checkOverride({ userId: "1", from: "2026-03-29T08:00", to: "2027-03-31T08:00" }, "UTC").errors).toEqual({ to: "oncall.overrides.errors.tooLong" });
  });

  test("a new override runs from the next full hour for a day, in the zone's wall time", () => {
    expect(emptyOverride(utc(2026, 3, 28, 10, 20), "Europe/Berlin")).toEqual({ userId: "", from: "2026-03-28T12:00", to: "2026-03-29T13:00" });
  });
});

describe("the two weeks and the times shown", () => {
  test("from today's local midnight to the 14th after (one hour short across spring forward)", () => {
    const { from, to } = twoWeeks(utc(2026, 3, 20, 12), "Europe/Berlin");
    expect(from).toBe(utc(2026, 3, 19, 23));
    expect(to).toBe(utc(2026, 4, 2, 22));
    expect(to - from).toBe(14 * 24 * H - H);
  });

  test("weekday and time within six days, the date too beyond; in the zone given", () => {
    const now = utc(2026, 3, 28, 12);
    const fmt = (at: number, zone = "Europe/Berlin") => new Intl.DateTimeFormat("en-US", whenOptions(at, now, zone)).format(at);
    expect(fmt(utc(2026, 3, 29, 7))).toBe("Sun 09:00");
    expect(fmt(utc(2026, 3, 29, 7), "America/New_York")).toBe("Sun 03:00");
    expect(fmt(utc(2026, 4, 6, 7))).toBe("Mon, Apr 6, 09:00");
  });
});
