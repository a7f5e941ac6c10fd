import { describe, expect, test } from "bun:test";
import { dueFirings, firingKey, nextFiring, type EscalationTiming } from "./timeline";

const M = 60_000;
const T0 = Date.UTC(2026, 10, 28, 3, 0, 0);
// Step 0 at once, step 1 after 10 min, step 2 after 20 more; step 2 again every 30 min, at most twice.
const POLICY: EscalationTiming = { steps: [{ waitMinutes: 10 }, { waitMinutes: 20 }, { waitMinutes: 0 }], repeatEveryMinutes: 30, repeatLimit: 2 };

describe("escalation timeline", () => {
  test("each step at its time, then the last step's repeats, bounded", () => {
    const at = (min: number) => dueFirings(POLICY, T0, T0 + min * M).map((f) => `${f.step}.${f.repeat}`);
    expect(at(0)).toEqual(["0.0"]);
    expect(at(9.99)).toEqual(["0.0"]);
    expect(at(10)).toEqual(["0.0", "1.0"]);
    expect(at(30)).toEqual(["0.0", "1.0", "2.0"]);
    expect(at(60)).toEqual(["0.0", "1.0", "2.0", "2.1"]);
    expect(at(90)).toEqual(["0.0", "1.0", "2.0", "2.2"]); // only the latest repeat reached
    expect(at(10_000)).toEqual(["0.0", "1.0", "2.0", "2.2"]); // no third repeat
  });

  test("what comes next, for 'will escalate to … at 03:12'", () => {
    expect(nextFiring(POLICY, T0, T0)).toEqual({ step: 1, repeat: 0, at: T0 + 10 * M });
    expect(nextFiring(POLICY, T0, T0 + 10 * M)).toEqual({ step: 2, repeat: 0, at: T0 + 30 * M });
    expect(nextFiring(POLICY, T0, T0 + 31 * M)).toEqual({ step: 2, repeat: 1, at: T0 + 60 * M });
    expect(nextFiring(POLICY, T0, T0 + 61 * M)).toEqual({ step: 2, repeat: 2, at: T0 + 90 * M });
    expect(nextFiring(POLICY, T0, T0 + 90 * M)).toBeNull();
  });

  test("no repeats, a single step, no steps", () => {
    const once: EscalationTiming = { steps: [{ waitMinutes: 5 }, { waitMinutes: 5 }], repeatEveryMinutes: null, repeatLimit: 3 };
    expect(dueFirings(once, T0, T0 + 600 * M).map((f) => f.step)).toEqual([0, 1]);
    expect(nextFiring(once, T0, T0 + 5 * M)).toBeNull();
    const single: EscalationTiming = { steps: [{ waitMinutes: 99 }], repeatEveryMinutes: 15, repeatLimit: 1 };
    expect(dueFirings(single, T0, T0 + 15 * M).map((f) => `${f.step}.${f.repeat}`)).toEqual(["0.0", "0.1"]);
    expect(nextFiring(single, T0, T0)).toEqual({ step: 0, repeat: 1, at: T0 + 15 * M });
    expect(dueFirings({ steps: [], repeatEveryMinutes: 5, repeatLimit: 5 }, T0, T0 + M)).toEqual([]);
    expect(nextFiring({ steps: [], repeatEveryMinutes: 5, repeatLimit: 5 }, T0, T0)).toBeNull();
  });

  test("a shorter minute (real-clock tests) scales every wait", () => {
    expect(dueFirings(POLICY, T0, T0 + 20_000, 2_000).map((f) => f.step)).toEqual([0, 1]);
  });

  test("keys differ per occurrence, step and repeat", () => {
    const keys = new Set([firingKey("monitor:1:down", T0, { step: 1, repeat: 0 }), firingKey("monitor:1:down", T0 + 1, { step: 1, repeat: 0 }), firingKey("monitor:1:down", T0, { step: 2, repeat: 0 }), firingKey("monitor:1:down", T0, { step: 2, repeat: 1 })]);
    expect(keys.size).toBe(4);
  });
});
