// Catching up a missed slot after a takeover or a database outage: only while the next regular slot is more than
// half an interval away, so no monitor gets two checks close together (and recovery is not a burst of every monitor).
import { expect, test } from "bun:test";
import { catchUpMissed } from "./catch-up";
import { slotAtOrAfter } from "./scheduler";

const MINUTE = 60_000;

/** Which of `ids` (1-minute monitors, nothing recorded for them) are checked now when the clock reads `now`. */
async function kicked(ids: number[], now: number, duringQuery?: (entries: { id: number; state: { lastCheckedAt: number | null } }[]) => void): Promise<number[]> {
  const out: number[] = [];
  const entries = ids.map((id) => ({ id, createdAt: 0, fields: { active: true, type: "http" }, state: { lastCheckedAt: null as number | null } }));
  await catchUpMissed({
    db: {
      rows: async () => {
        duringQuery?.(entries);
        return [];
      },
    } as never,
    store: { all: () => entries, get: (id: number) => entries.find((e) => e.id === id) } as never,
    scheduler: { has: () => true, running: () => false, settled: async () => {}, schedule: (id: number, _m: number, o?: { kick?: boolean }) => o?.kick && out.push(id) } as never,
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

test("a slot whose regular check ran while the table was asked is not checked again (the result not yet written)", async () => {
  const base = Date.UTC(2026, 0, 5, 10, 0, 0);
  const ids = Array.from({ length: 200 }, (_, i) => i + 1);
  const now = base + 7 * MINUTE + 12_345;
  const missed = await kicked(ids, now);
  expect(missed.length).toBeGreaterThan(20);
  // The same monitors, but each one's check of its latest slot finished (in memory, queued for writing) meanwhile.
  const late = await kicked(ids, now, (entries) => {
    for (const e of entries) e.state.lastCheckedAt = slotAtOrAfter(now + 1, e.id, MINUTE) - MINUTE + 6;
  });
  expect(late).toEqual([]);
});
