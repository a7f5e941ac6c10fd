import { describe, expect, test } from "bun:test";
import { epochDay, onCallAt, shiftsBetween, upcoming, type RotationOverride, type RotationSchedule } from "./rotation";

const H = 3_600_000;
const DAY = 24 * H;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

const daily = (over: Partial<RotationSchedule> = {}): RotationSchedule => ({
  timeZone: "Europe/Berlin",
  rotation: "daily",
  handoverTime: "09:00",
  handoverWeekday: null,
  startDate: "2026-03-27",
  participants: [1, 2, 3],
  ...over,
});
const weekly = (over: Partial<RotationSchedule> = {}) => daily({ rotation: "weekly", handoverWeekday: 1, ...over });
const who = (s: RotationSchedule, t: number, overrides: RotationOverride[] = []) => onCallAt(s, overrides, t)?.userId ?? null;
/** The rotation's own shifts (no overrides) over a range, as [user, start, end]. */
const shifts = (s: RotationSchedule, from: number, to: number, overrides: RotationOverride[] = []) => shiftsBetween(s, overrides, from, to).map((x) => [x.userId, x.start, x.end, x.overrideId]);

describe("dates", () => {
  test("epochDay takes calendar dates only", () => {
    expect(epochDay("1970-01-02")).toBe(1);
    expect(epochDay("2026-02-28")).not.toBeNull();
    expect(epochDay("2026-02-29")).toBeNull();
    expect(epochDay("2028-02-29")).not.toBeNull();
    expect(epochDay("2026-13-01")).toBeNull();
    expect(epochDay("2026-1-01")).toBeNull();
    expect(epochDay("1969-12-31")).toBeNull();
  });
});

describe("daily rotation", () => {
  test("participant 0 from the start date's hand-over, then each in turn, round and round; nobody before", () => {
    const s = daily(); // 09:00 CET is 08:00 UTC in March before the change
    expect(who(s, utc(2026, 3, 27, 7, 59))).toBeNull();
    expect(who(s, utc(2026, 3, 27, 8, 0))).toBe(1);
    expect(who(s, utc(2026, 3, 28, 7, 59))).toBe(1);
    expect(who(s, utc(2026, 3, 28, 8, 0))).toBe(2);
    expect(who(s, utc(2026, 1, 1))).toBeNull();
    expect(who(daily({ startDate: "2026-01-01", timeZone: "UTC" }), utc(2026, 1, 10, 9))).toBe([1, 2, 3][9 % 3]); // shift 9
  });

  test("spring forward in Berlin: 09:00 stays 09:00 local, so the shift across the change lasts 23 hours", () => {
    const s = daily();
    // 03-28 09:00 CET = 08:00Z; 03-29 09:00 CEST = 07:00Z; 03-30 09:00 CEST = 07:00Z.
    expect(shifts(s, utc(2026, 3, 28, 8), utc(2026, 3, 30, 7))).toEqual([
      [2, utc(2026, 3, 28, 8), utc(2026, 3, 29, 7), null],
      [3, utc(2026, 3, 29, 7), utc(2026, 3, 30, 7), null],
    ]);
    expect(who(s, utc(2026, 3, 29, 6, 59))).toBe(2);
    expect(who(s, utc(2026, 3, 29, 7))).toBe(3);
  });

  test("fall back in Berlin: the shift across the change lasts 25 hours", () => {
    const s = daily({ startDate: "2026-10-24" });
    // 10-24 09:00 CEST = 07:00Z; 10-25 09:00 CET = 08:00Z.
    const [first] = shiftsBetween(s, [], utc(2026, 10, 24, 7), utc(2026, 10, 24, 8));
    expect(first).toEqual({ userId: 1, start: utc(2026, 10, 24, 7), end: utc(2026, 10, 25, 8), overrideId: null });
    expect(first!.end - first!.start).toBe(25 * H);
    expect(who(s, utc(2026, 10, 25, 7, 59))).toBe(1);
    expect(who(s, utc(2026, 10, 25, 8))).toBe(2);
  });

  test("a 02:30 hand-over on Berlin's spring-forward night moves forward by the gap, to 03:30", () => {
    const s = daily({ handoverTime: "02:30", startDate: "2026-03-28" });
    // 03-28 02:30 CET = 01:30Z; 03-29 02:30 does not exist → 03:30 CEST = 01:30Z; 03-30 02:30 CEST = 00:30Z.
    expect(shifts(s, utc(2026, 3, 28, 1, 30), utc(2026, 3, 30, 0, 30))).toEqual([
      [1, utc(2026, 3, 28, 1, 30), utc(2026, 3, 29, 1, 30), null],
      [2, utc(2026, 3, 29, 1, 30), utc(2026, 3, 30, 0, 30), null],
    ]);
    expect(who(s, utc(2026, 3, 29, 1, 29))).toBe(1);
    expect(who(s, utc(2026, 3, 29, 1, 30))).toBe(2);
    expect(who(s, utc(2026, 3, 30, 0, 30))).toBe(3);
  });

  test("a 02:30 hand-over on New York's spring-forward day, and 01:30 twice on its fall-back night (the first counts)", () => {
    const spring = daily({ timeZone: "America/New_York", handoverTime: "02:30", startDate: "2026-03-07", participants: [7, 8] });
    // 03-07 02:30 EST = 07:30Z; 03-08 → 03:30 EDT = 07:30Z; 03-09 02:30 EDT = 06:30Z.
    expect(shifts(spring, utc(2026, 3, 7, 7, 30), utc(2026, 3, 9, 6, 30))).toEqual([
      [7, utc(2026, 3, 7, 7, 30), utc(2026, 3, 8, 7, 30), null],
      [8, utc(2026, 3, 8, 7, 30), utc(2026, 3, 9, 6, 30), null],
    ]);
    const fall = daily({ timeZone: "America/New_York", handoverTime: "01:30", startDate: "2026-10-31", participants: [7, 8] });
    // 10-31 01:30 EDT = 05:30Z; 11-01 01:30 happens at 05:30Z (EDT) and 06:30Z (EST): the first; 11-02 01:30 EST = 06:30Z.
    expect(shifts(fall, utc(2026, 10, 31, 5, 30), utc(2026, 11, 2, 6, 30))).toEqual([
      [7, utc(2026, 10, 31, 5, 30), utc(2026, 11, 1, 5, 30), null],
      [8, utc(2026, 11, 1, 5, 30), utc(2026, 11, 2, 6, 30), null],
    ]);
    expect(who(fall, utc(2026, 11, 1, 6, 0))).toBe(8); // between the two 01:30s: already handed over
  });

  test("a zone east of UTC: the local day is what counts (Tokyo's 06:00 is the day before in UTC)", () => {
    const s = daily({ timeZone: "Asia/Tokyo", handoverTime: "06:00", startDate: "2026-05-01", participants: [4, 5] });
    expect(who(s, utc(2026, 4, 30, 20, 59))).toBeNull();
    expect(who(s, utc(2026, 4, 30, 21))).toBe(4);
    expect(who(s, utc(2026, 5, 1, 21))).toBe(5);
    expect(who(s, utc(2026, 5, 2, 20, 59))).toBe(5);
  });

  test("one participant: on call for good, nobody next; none at all: nobody", () => {
    const s = daily({ participants: [5] });
    expect(upcoming(s, [], utc(2026, 4, 1))).toEqual({ now: { userId: 5, until: null }, next: null });
    expect(who(daily({ participants: [] }), utc(2026, 4, 1))).toBeNull();
    expect(shiftsBetween(daily({ participants: [] }), [], utc(2026, 4, 1), utc(2026, 4, 8))).toEqual([]);
  });
});

describe("weekly rotation", () => {
  test("the first shift runs from the start day to the first hand-over weekday; then a week each", () => {
    // 2026-03-25 is a Wednesday; Monday 03-30 09:00 is after the change: 07:00Z.
    const s = weekly({ startDate: "2026-03-25" });
    expect(shifts(s, utc(2026, 3, 25), utc(2026, 4, 14))).toEqual([
      [1, utc(2026, 3, 25, 8), utc(2026, 3, 30, 7), null],
      [2, utc(2026, 3, 30, 7), utc(2026, 4, 6, 7), null],
      [3, utc(2026, 4, 6, 7), utc(2026, 4, 13, 7), null],
      [1, utc(2026, 4, 13, 7), utc(2026, 4, 20, 7), null],
    ]);
  });

  test("a start on the hand-over weekday is a whole week; across spring forward it is 167 hours, across fall back 169", () => {
    const spring = weekly({ startDate: "2026-03-23" }); // a Monday
    const [a] = shiftsBetween(spring, [], utc(2026, 3, 24), utc(2026, 3, 25));
    expect(a).toEqual({ userId: 1, start: utc(2026, 3, 23, 8), end: utc(2026, 3, 30, 7), overrideId: null });
    expect(a!.end - a!.start).toBe(167 * H);
    const fall = weekly({ startDate: "2026-10-19", timeZone: "America/New_York", handoverWeekday: 1 }); // Monday; NY falls back 11-01
    const [c] = shiftsBetween(fall, [], utc(2026, 10, 27), utc(2026, 10, 28));
    expect(c).toEqual({ userId: 2, start: utc(2026, 10, 26, 13), end: utc(2026, 11, 2, 14), overrideId: null });
    expect(c!.end - c!.start).toBe(169 * H);
  });

  test("Sunday hand-overs (weekday 7) and who is on call deep into the rotation", () => {
    const s = weekly({ timeZone: "UTC", handoverWeekday: 7, handoverTime: "18:00", startDate: "2026-01-01", participants: [1, 2] });
    // Thursday 01-01 18:00 → Sunday 01-04 18:00 (participant 1), then weeks.
    expect(who(s, utc(2026, 1, 4, 17, 59))).toBe(1);
    expect(who(s, utc(2026, 1, 4, 18))).toBe(2);
    expect(who(s, utc(2026, 1, 11, 18))).toBe(1);
    // Week n after the first hand-over: shift n + 1.
    expect(who(s, utc(2026, 6, 1))).toBe([1, 2][(Math.floor((utc(2026, 6, 1) - utc(2026, 1, 4, 18)) / (7 * DAY)) + 1) % 2]);
  });
});

describe("overrides", () => {
  const s = daily({ timeZone: "UTC", startDate: "2026-04-01", handoverTime: "09:00" });
  const o = (id: number, userId: number, startsAt: number, endsAt: number): RotationOverride => ({ id, userId, startsAt, endsAt });

  test("an override for a day wins over the rotation, only inside its range", () => {
    const day = o(1, 9, utc(2026, 4, 2), utc(2026, 4, 3));
    expect(who(s, utc(2026, 4, 1, 23, 59), [day])).toBe(1);
    expect(onCallAt(s, [day], utc(2026, 4, 2))).toEqual({ userId: 9, overrideId: 1 });
    expect(who(s, utc(2026, 4, 2, 23, 59), [day])).toBe(9);
    expect(who(s, utc(2026, 4, 3), [day])).toBe(2);
    // The shifts: the rotation's cut around it.
    expect(shifts(s, utc(2026, 4, 1, 9), utc(2026, 4, 3, 9), [day])).toEqual([
      [1, utc(2026, 4, 1, 9), utc(2026, 4, 2), null],
      [9, utc(2026, 4, 2), utc(2026, 4, 3), 1],
      [2, utc(2026, 4, 3), utc(2026, 4, 3, 9), null],
    ]);
  });

  test("an override over a range of days covers several hand-overs; overlapping ones: the latest created wins", () => {
    const range = o(4, 8, utc(2026, 4, 2, 12), utc(2026, 4, 6, 12));
    const later = o(7, 6, utc(2026, 4, 3), utc(2026, 4, 4));
    const earlier = o(2, 5, utc(2026, 4, 5), utc(2026, 4, 7)); // created before the range: under it where both apply
    const all = [range, later, earlier];
    expect(who(s, utc(2026, 4, 3, 12), all)).toBe(6);
    expect(who(s, utc(2026, 4, 5, 12), all)).toBe(8);
    expect(who(s, utc(2026, 4, 6, 12), all)).toBe(5);
    expect(who(s, utc(2026, 4, 7), all)).toBe(3); // shift 5 (04-06 09:00 → 04-07 09:00): participant 2
    expect(shifts(s, utc(2026, 4, 2, 12), utc(2026, 4, 7, 9), all)).toEqual([
      [8, utc(2026, 4, 2, 12), utc(2026, 4, 3), 4],
      [6, utc(2026, 4, 3), utc(2026, 4, 4), 7],
      [8, utc(2026, 4, 4), utc(2026, 4, 6, 12), 4],
      [5, utc(2026, 4, 6, 12), utc(2026, 4, 7), 2],
      [3, utc(2026, 4, 7), utc(2026, 4, 7, 9), null],
    ]);
  });

  test("stretches at the range's edges keep their true bounds", () => {
    const range = o(1, 8, utc(2026, 4, 2, 12), utc(2026, 4, 6, 12));
    expect(shifts(s, utc(2026, 4, 4), utc(2026, 4, 4, 1), [range])).toEqual([[8, utc(2026, 4, 2, 12), utc(2026, 4, 6, 12), 1]]);
    expect(shifts(s, utc(2026, 4, 6, 13), utc(2026, 4, 6, 14), [range])).toEqual([[3, utc(2026, 4, 6, 12), utc(2026, 4, 7, 9), null]]);
    expect(shifts(s, utc(2026, 4, 6, 11), utc(2026, 4, 6, 13), [range]).map((x) => x[0])).toEqual([8, 3]);
  });

  test("before the start date only overrides put someone on call; empty or reversed ranges are ignored", () => {
    const early = o(1, 9, utc(2026, 3, 20), utc(2026, 3, 21));
    expect(who(s, utc(2026, 3, 20, 5), [early])).toBe(9);
    expect(who(s, utc(2026, 3, 21, 5), [early])).toBeNull();
    expect(shifts(s, utc(2026, 3, 19), utc(2026, 4, 1, 10), [early])).toEqual([
      [9, utc(2026, 3, 20), utc(2026, 3, 21), 1],
      [1, utc(2026, 4, 1, 9), utc(2026, 4, 2, 9), null],
    ]);
    expect(who(s, utc(2026, 4, 2), [o(2, 9, utc(2026, 4, 2), utc(2026, 4, 2))])).toBe(1);
  });

  test("an override of the person already on call changes nobody", () => {
    const same = o(1, 1, utc(2026, 4, 1, 10), utc(2026, 4, 1, 12));
    expect(upcoming(s, [same], utc(2026, 4, 1, 11))).toEqual({ now: { userId: 1, until: utc(2026, 4, 2, 9) }, next: { userId: 2, from: utc(2026, 4, 2, 9) } });
  });
});

describe("now and next", () => {
  const s = daily({ timeZone: "Europe/Berlin", startDate: "2026-03-27" });
  const o = (id: number, userId: number, startsAt: number, endsAt: number): RotationOverride => ({ id, userId, startsAt, endsAt });

  test("on call until the hand-over (local 09:00 across the change), the next person from then", () => {
    expect(upcoming(s, [], utc(2026, 3, 28, 12))).toEqual({ now: { userId: 2, until: utc(2026, 3, 29, 7) }, next: { userId: 3, from: utc(2026, 3, 29, 7) } });
  });

  test("before the start: nobody now, participant 0 from the first hand-over", () => {
    expect(upcoming(s, [], utc(2026, 3, 1))).toEqual({ now: null, next: { userId: 1, from: utc(2026, 3, 27, 8) } });
  });

  test("an override starting mid-shift ends the current duty early and is next; one running now ends at its end", () => {
    const cover = o(3, 9, utc(2026, 3, 28, 20), utc(2026, 3, 30, 12));
    expect(upcoming(s, [cover], utc(2026, 3, 28, 12))).toEqual({ now: { userId: 2, until: utc(2026, 3, 28, 20) }, next: { userId: 9, from: utc(2026, 3, 28, 20) } });
    // During it: 9 until the override ends, then the rotation's person then (03-30 09:00 CEST started shift 3: participant 0).
    expect(upcoming(s, [cover], utc(2026, 3, 29, 12))).toEqual({ now: { userId: 9, until: utc(2026, 3, 30, 12) }, next: { userId: 1, from: utc(2026, 3, 30, 12) } });
  });

  test("an override covering the next hand-over for the same person makes the change later", () => {
    // 2 is on call 03-28 08:00Z → 03-29 07:00Z; an override keeps 2 until 03-29 12:00Z, then 3.
    const stay = o(1, 2, utc(2026, 3, 29, 6), utc(2026, 3, 29, 12));
    expect(upcoming(s, [stay], utc(2026, 3, 28, 12))).toEqual({ now: { userId: 2, until: utc(2026, 3, 29, 12) }, next: { userId: 3, from: utc(2026, 3, 29, 12) } });
  });

  test("an override before the start: its person until it ends; then nobody, then participant 0", () => {
    const early = o(1, 9, utc(2026, 3, 20), utc(2026, 3, 21));
    expect(upcoming(s, [early], utc(2026, 3, 20, 5))).toEqual({ now: { userId: 9, until: utc(2026, 3, 21) }, next: { userId: 1, from: utc(2026, 3, 27, 8) } });
  });

  test("a rotation of one with a long override months ahead: the change is found", () => {
    const one = daily({ participants: [5] });
    const far = o(1, 6, utc(2026, 9, 1), utc(2026, 9, 2));
    expect(upcoming(one, [far], utc(2026, 4, 1))).toEqual({ now: { userId: 5, until: utc(2026, 9, 1) }, next: { userId: 6, from: utc(2026, 9, 1) } });
  });
});

describe("agreement", () => {
  // Zones that move their clocks at odd hours: Santiago skips midnight (00:00 → 01:00 in September), Lord Howe moves
  // by half an hour, Berlin and New York at 02:00.
  const later = (hhmm: string, minutes: number) => new Date(Date.UTC(2000, 0, 1, Number(hhmm.slice(0, 2)), Number(hhmm.slice(3)) + minutes)).toISOString().slice(11, 16);
  const zones = ["Europe/Berlin", "America/New_York", "America/Santiago", "Australia/Lord_Howe"];
  for (const timeZone of zones) {
    test(`${timeZone}: shifts tile the year without gaps, each hand-over at the local time, and agree with onCallAt`, () => {
      for (const s of [daily({ timeZone, startDate: "2026-01-01", handoverTime: "00:30" }), weekly({ timeZone, startDate: "2026-01-01", handoverTime: "02:30", handoverWeekday: 7 })]) {
        const overrides = [{ id: 2, userId: 9, startsAt: utc(2026, 9, 5, 23), endsAt: utc(2026, 9, 7, 1) }];
        const list = shiftsBetween(s, overrides, utc(2026, 1, 2), utc(2026, 12, 31));
        for (let i = 1; i < list.length; i++) expect(list[i]!.start).toBe(list[i - 1]!.end);
        const local = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
        for (const x of list.filter((x) => x.overrideId === null && x.start > utc(2026, 1, 3))) {
          const startsOwnShift = !list.some((y) => y.overrideId !== null && y.end === x.start);
          // A hand-over is at the time itself, or later by a gap the zone skipped (never more than an hour).
          if (startsOwnShift) expect([0, 30, 60].map((gap) => later(s.handoverTime, gap))).toContain(local.format(x.start));
        }
        for (let t = utc(2026, 1, 2); t < utc(2026, 12, 30); t += 7 * H + 13 * 60_000) {
          const at = list.find((x) => x.start <= t && t < x.end)!;
          expect(onCallAt(s, overrides, t)).toEqual({ userId: at.userId, overrideId: at.overrideId });
        }
      }
    });
  }
});
