import { describe, expect, test } from "bun:test";
import { walkOutages, type WalkedCheck } from "./outages";

const c = (time: number, up: boolean, maintenance = false, error: string | null = up ? null : `e${time}`): WalkedCheck => ({ time, up, maintenance, error });

describe("outage runs", () => {
  test("a run starts at a counted failure, goes on through failures in maintenance, ends at the first check that passes", () => {
    expect(walkOutages(1, [c(1, true), c(2, false, true), c(3, false), c(4, false, true), c(5, false), c(6, true, true), c(7, false)], null)).toEqual([
      { monitorId: 1, startedAt: 3, endedAt: 6, lastFailureAt: 5, failures: 2, cause: "e3" },
      { monitorId: 1, startedAt: 7, endedAt: null, lastFailureAt: 7, failures: 1, cause: "e7" },
    ]);
  });

  test("an open run is continued by the next hour's checks, and left out when they leave it as it was", () => {
    const open = { monitorId: 1, startedAt: 1, endedAt: null, lastFailureAt: 1, failures: 1, cause: "e1" };
    expect(walkOutages(1, [c(10, false), c(11, true)], open)).toEqual([{ ...open, endedAt: 11, lastFailureAt: 10, failures: 2 }]);
    expect(walkOutages(1, [c(10, false, true)], open)).toEqual([]);
    expect(walkOutages(1, [], open)).toEqual([]);
    expect(open.failures).toBe(1); // not changed in place
  });
});
