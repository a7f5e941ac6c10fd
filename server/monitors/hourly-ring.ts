// The hourly counters each monitor keeps in memory for the list's heartbeat strip and 24-hour uptime
// (server/monitors/store.ts keeps one ring per monitor).
import { HOUR } from "./history";

/**
 * The hourly counters for the list's heartbeat and uptime: [newest hour, then one slot per hour (hour % RING) packing
 * checks << 16 | up], the last RING hours up to the newest. 26 integers per monitor rather than 25 × [hour, checks, up]:
 * at 100 000 monitors the old 300-byte rings were a third of the heap.
 */
export type HourlyRing = Uint32Array;
export const RING = 25;
/** A slot's counts stop here rather than wrap (an hour holds at most 3 600 checks: push, one per second). */
const MAX_COUNT = 0xffff;

export const newRing = (): HourlyRing => new Uint32Array(1 + RING);

const slotIndex = (hour: number) => 1 + (((hour % RING) + RING) % RING);

/** Where `hour` is counted, or -1 if the ring does not hold it (ahead of the newest hour, or RING or more before it). */
function slotOf(ring: HourlyRing, hour: number): number {
  const newest = ring[0]!;
  return hour <= newest && hour > newest - RING ? slotIndex(hour) : -1;
}

/** Adds `checks` checks, `up` of them up, to an hour (ignored when older than the ring keeps). */
export function add(ring: HourlyRing, hour: number, checks: number, up: number) {
  const newest = ring[0]!;
  if (hour > newest) {
    // A later hour: the slots of the hours passed since the newest are reused, so they start from nothing.
    if (hour - newest >= RING) ring.fill(0, 1);
    else for (let h = newest + 1; h <= hour; h++) ring[slotIndex(h)] = 0;
    ring[0] = hour;
  } else if (hour <= newest - RING) return; // older than the ring keeps
  const i = slotIndex(hour);
  const v = ring[i]!;
  const room = MAX_COUNT - (v >>> 16);
  up = Math.min(up, checks); // up spilling into the checks' half would corrupt the slot
  if (checks > room) {
    // Full: only what fits is counted, in the same proportion (a full slot keeps its ratio).
    up = Math.round((up * room) / checks);
    checks = room;
  }
  ring[i] = (((v >>> 16) + checks) * 0x10000 + (v & MAX_COUNT) + up) >>> 0;
}

/** Counts a check made at `time` (ms). */
export const bump = (ring: HourlyRing, time: number, up: boolean) => add(ring, Math.floor(time / HOUR), 1, up ? 1 : 0);

/** The last 24 hours as [checks, up] pairs, oldest first, the current hour last. */
export function heartbeat(ring: HourlyRing, now: number): [number, number][] {
  const current = Math.floor(now / HOUR);
  const out: [number, number][] = [];
  for (let hour = current - 23; hour <= current; hour++) {
    const i = slotOf(ring, hour);
    const v = i < 0 ? 0 : ring[i]!;
    out.push([v >>> 16, v & MAX_COUNT]);
  }
  return out;
}

/** Percent with two decimals, rounded down (100 only when nothing failed); null without checks. */
export function percent(up: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.floor((up / total) * 10_000 + 1e-9) / 100;
}

/**
 * Availability over the last 24 hours from the hourly ring: the current hour and the 23 before it, plus the part of
 * the 24th hour back that still lies in the window (pro rata).
 */
export function uptime24h(ring: HourlyRing, now: number): number | null {
  const current = Math.floor(now / HOUR);
  const frac = (now - current * HOUR) / HOUR;
  let total = 0;
  let up = 0;
  for (let k = 0; k <= 24; k++) {
    const i = slotOf(ring, current - k);
    if (i < 0) continue;
    const v = ring[i]!;
    const w = k === 24 ? 1 - frac : 1;
    total += (v >>> 16) * w;
    up += (v & MAX_COUNT) * w;
  }
  return total > 0 ? percent(up, total) : null;
}
