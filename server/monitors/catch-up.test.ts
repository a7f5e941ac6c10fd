// Catching up a missed slot after a takeover or a database outage: only while the next regular slot is more than
// half an interval away, so no monitor gets two checks close together (and recovery is not a burst of every monitor).
import { expect, test } from "bun:test";
import { catchUpMissed } from "./catch-up";
import { slotAtOrAfter } from "./scheduler";

const MINUTE = 60_000;

/** Which of `ids` (1-minute monitors, nothing recorded for them) are checked now when the clock reads `now`. */
type Seen = { id: number; state: { lastCheckedAt: number | null } };

/** `duringQuery` may say, while the table is asked, what this node's scheduler started (`started`) and what memory holds. */
async function kicked(ids: number[], now: number, duringQuery?: (entries: Seen[], started: Map<number, number>) => void): Promise<number[]> {
  const out: number[] = [];
  const entries = ids.map((id) => ({ id, createdAt: 0, fields: { active: true, type: "http" }, state: { lastCheckedAt: null as number | null } }));
  const started = new Map<number, number>();
  await catchUpMissed({
    db: {
      rows: async () => {
        duringQuery?.(entries, started);
        return [];
      },
    } as never,
    store: { all: () => entries, get: (id: number) => entries.find((e) => e.id === id) } as never,
    scheduler: { has: () => true, running: () => false, lastStarted: (id: number) => started.get(id) ?? 0, settled: async () => {}, schedule: (id: number, _m: number, o?: { kick?: boolean }) => o?.kick && out.push(id) } as never,
    writer: { flush: async () => {} } as never,
    clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => {} },
    owns: () => true,
    cadence: () => 60,
    minuteMs: MINUTE,
  });
  return out;
}

test("a missed slot is checked now only if the next regular slot is more than half an interval away", async () => {
  const base = Date.UTC(2026, 0, 5, 10, 0, 0);
  const ids = Array.from({ length: 200 }, (_, i) => i + 1);
  const now = base + 7 * MINUTE + 12_345;
  const got = await kicked(ids, now);
  for (const id of ids) {
    const next = slotAtOrAfter(now + 1, id, MINUTE);
    const missedAgo = now - (next - MINUTE);
    // Within the 45 s horizon: caught up when missed < 30 s ago (next > 30 s away), left to the next slot otherwise.
    if (missedAgo < 30_000) expect({ id, kicked: got.includes(id) }).toEqual({ id, kicked: true });
    else expect({ id, missedAgo, kicked: got.includes(id) }).toEqual({ id, missedAgo, kicked: false });
  }
  // Some of each, so both branches were seen.
  expect(got.length).toBeGreaterThan(20);
  expect(got.length).toBeLessThan(180);
});

test("a slot whose regular check ran here while the table was asked is not checked again (the result not yet written)", async () => {
  const base = Date.UTC(2026, 0, 5, 10, 0, 0);
  const ids = Array.from({ length: 200 }, (_, i) => i + 1);
  const now = base + 7 * MINUTE + 12_345;
  const missed = await kicked(ids, now);
  expect(missed.length).toBeGreaterThan(20);
  const latestSlot = (id: number) => slotAtOrAfter(now + 1, id, MINUTE) - MINUTE;
  // This node's scheduler started each one's check of its latest slot meanwhile: nothing to make up.
  expect(await kicked(ids, now, (_, started) => ids.forEach((id) => started.set(id, latestSlot(id) + 6)))).toEqual([]);
  // Only another node told of such checks (it may have been killed before writing them): they are made up.
  expect(await kicked(ids, now, (entries) => entries.forEach((e) => (e.state.lastCheckedAt = latestSlot(e.id) + 6)))).toEqual(missed);
});
