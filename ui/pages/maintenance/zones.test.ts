import { describe, expect, test } from "bun:test";
import { dateToInstant, instantToDate, instantToWall, isKnownZone, wallToInstant, zoneList } from "./zones";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("wall times in a zone", () => {
  test("an ordinary time in three zones", () => {
    expect(iso(wallToInstant("2026-01-05T10:00", "Europe/Berlin"))).toBe("2026-01-05T09:00:00.000Z");
    expect(iso(wallToInstant("2026-07-05T10:00", "Europe/Berlin"))).toBe("2026-07-05T08:00:00.000Z");
    expect(iso(wallToInstant("2026-01-05T10:00", "America/New_York"))).toBe("2026-01-05T15:00:00.000Z");
    expect(iso(wallToInstant("2026-07-05T10:00", "America/New_York"))).toBe("2026-07-05T14:00:00.000Z");
    expect(iso(wallToInstant("2026-07-05T02:00", "Asia/Shanghai"))).toBe("2026-07-04T18:00:00.000Z");
  });

  test("the hour skipped in spring moves forward by the gap; the hour repeated in autumn is the earlier one", () => {
    // Berlin skips 02:00-03:00 on 2026-03-29: 02:30 is read as 03:30 CEST.
    expect(iso(wallToInstant("2026-03-29T02:30", "Europe/Berlin"))).toBe("2026-03-29T01:30:00.000Z");
    expect(instantToWall(wallToInstant("2026-03-29T02:30", "Europe/Berlin")!, "Europe/Berlin")).toBe("2026-03-29T03:30");
    // Berlin has 02:30 twice on 2026-10-25: the first, still CEST.
    expect(iso(wallToInstant("2026-10-25T02:30", "Europe/Berlin"))).toBe("2026-10-25T00:30:00.000Z");
    // New York: 2026-03-08 02:30 does not exist; 2026-11-01 01:30 happens twice.
    expect(iso(wallToInstant("2026-03-08T02:30", "America/New_York"))).toBe("2026-03-08T07:30:00.000Z");
    expect(iso(wallToInstant("2026-11-01T01:30", "America/New_York"))).toBe("2026-11-01T05:30:00.000Z");
  });

  test("round trips, dates, bad input", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/New_York", "Asia/Shanghai", "Asia/Kolkata"]) {
      for (const wall of ["2026-01-01T00:00", "2026-06-15T23:59", "2028-02-29T12:00"]) expect(instantToWall(wallToInstant(wall, zone)!, zone)).toBe(wall);
    }
    expect(iso(dateToInstant("2026-10-25", "Europe/Berlin"))).toBe("2026-10-24T22:00:00.000Z");
    expect(instantToDate(Date.UTC(2026, 9, 24, 22, 0), "Europe/Berlin")).toBe("2026-10-25");
    expect(wallToInstant("tomorrow", "UTC")).toBeNull();
    expect(dateToInstant("2026-1-5", "UTC")).toBeNull();
    expect(isKnownZone("Europe/Berlin")).toBe(true);
    expect(isKnownZone("Mars/Base")).toBe(false);
    expect(zoneList()[0]).toBe("UTC");
    expect(zoneList()).toContain("Asia/Shanghai");
  });
});
