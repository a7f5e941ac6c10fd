import { describe, expect, test } from "bun:test";
import { quietDraft, quietErrors, toggleDay, toQuietHours } from "./quietDraft";

describe("quiet hours form", () => {
  test("none is off, with a night in the given zone ready; a stored rule comes back as it was", () => {
    const off = quietDraft(null, "Asia/Shanghai");
    expect(off).toEqual({ on: false, from: "22:00", to: "07:00", timeZone: "Asia/Shanghai", days: [1, 2, 3, 4, 5, 6, 7], holdDown: false });
    expect(toQuietHours(off)).toBeNull();
    expect(quietErrors({ ...off, from: "" })).toEqual({});
    const rule = { from: "21:30", to: "06:00", timeZone: "Europe/Berlin", days: [1, 5], holdDown: true };
    expect(toQuietHours(quietDraft(rule))).toEqual(rule);
    expect(toQuietHours(quietDraft({ from: "21:30", to: "06:00", timeZone: "UTC", holdDown: false }))).toEqual({ from: "21:30", to: "06:00", timeZone: "UTC", holdDown: false });
  });

  test("seconds from a time input are dropped; every day is no days", () => {
    const d = { ...quietDraft(null, "UTC"), on: true, from: "22:00:00", days: [7, 1, 2, 3, 4, 5, 6] };
    expect(quietErrors(d)).toEqual({});
    expect(toQuietHours(d)).toEqual({ from: "22:00", to: "07:00", timeZone: "UTC", holdDown: false });
    expect(toggleDay([1, 5], 3)).toEqual([1, 3, 5]);
    expect(toggleDay([1, 3, 5], 3)).toEqual([1, 5]);
  });

  test("what the server would refuse is named here first", () => {
    const on = { ...quietDraft(null, "UTC"), on: true };
    expect(quietErrors({ ...on, from: "" })).toEqual({ from: "quietHours.errors.time" });
    expect(quietErrors({ ...on, to: "25:00" })).toEqual({ to: "quietHours.errors.time" });
    expect(quietErrors({ ...on, timeZone: "Mars/Base" })).toEqual({ timeZone: "quietHours.errors.zone" });
    expect(quietErrors({ ...on, days: [] })).toEqual({ days: "quietHours.errors.days" });
    expect(quietErrors({ ...on, from: "08:00", to: "08:00" })).toEqual({ to: "quietHours.errors.always" });
    // The whole of chosen days is fine.
    expect(quietErrors({ ...on, from: "00:00", to: "00:00", days: [6, 7] })).toEqual({});
  });
});
