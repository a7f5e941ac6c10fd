// Pure logic of the monitor list at scale (unit-tested without a DOM): changes to the view, the 24-hour heartbeat strip,
// and which rows a window of the page shows. The view itself, filtering, sorting, the tree and the counts are shared
// with the server's paged list (server/monitors/list-view.ts).
import { DEFAULT_DIR, type ListView, type SortKey } from "../../../server/monitors/list-view";

export * from "../../../server/monitors/list-view";

// ── Changes to the view ─────────────────────────────────────────────────────────────────────────────────────────

/** Sets a sort key: a new key starts in its default direction; the same key again reverses it. */
export function toggleSort(view: ListView, key: SortKey): ListView {
  if (view.sort === key) return { ...view, dir: view.dir === "asc" ? "desc" : "asc" };
  return { ...view, sort: key, dir: DEFAULT_DIR[key] };
}

/** Adds a tag to the filter, or takes it out if it is there (without case). */
export function toggleTag(view: ListView, tag: string): ListView {
  const key = tag.toLowerCase();
  const has = view.tags.some((t) => t.toLowerCase() === key);
  return { ...view, tags: has ? view.tags.filter((t) => t.toLowerCase() !== key) : [...view.tags, tag] };
}

// ── Filtering and sorting ───────────────────────────────────────────────────────────────────────────────────────

// ── Heartbeat strip ─────────────────────────────────────────────────────────────────────────────────────────────

export const HOUR_MS = 3_600_000;
export const HEARTBEAT_HOURS = 24;

/** [checks, up] of one hour. */
export type HeartbeatPair = [number, number];
/** The hour number (hours since the epoch, UTC, as the server counts them) of a moment. */
export const hourOf = (time: number) => Math.floor(time / HOUR_MS);

const EMPTY_PAIR = (): HeartbeatPair => [0, 0];

/** Exactly HEARTBEAT_HOURS pairs: a short or missing strip is padded with empty hours at the old end. */
export function normalizeHeartbeat(heartbeat: readonly (readonly [number, number])[] | null | undefined): HeartbeatPair[] {
  const list = (heartbeat ?? []).slice(-HEARTBEAT_HOURS).map(([c, u]): HeartbeatPair => [c, u]);
  while (list.length < HEARTBEAT_HOURS) list.unshift(EMPTY_PAIR());
  return list;
}

/**
 * A strip whose last pair is hour `from`, moved on so that its last pair is hour `to`: the oldest hours drop off and
 * empty ones come in. The same array when `to` is not later.
 */
export function rollHeartbeat(heartbeat: HeartbeatPair[], from: number, to: number): HeartbeatPair[] {
  const shift = to - from;
  if (shift <= 0) return heartbeat;
  if (shift >= HEARTBEAT_HOURS) return normalizeHeartbeat([]);
  return [...heartbeat.slice(shift), ...Array.from({ length: shift }, EMPTY_PAIR)];
}

/**
 * Counts one check finished at `time` into a strip whose last pair is hour `hour`: a check of a later hour rolls the
 * strip first; one older than the strip is dropped. Returns the new strip and its last hour.
 */
export function bumpHeartbeat(heartbeat: HeartbeatPair[], hour: number, time: number, up: boolean): { heartbeat: HeartbeatPair[]; hour: number } {
  const at = hourOf(time);
  const rolled = rollHeartbeat(heartbeat, hour, at);
  const last = Math.max(hour, at);
  const index = HEARTBEAT_HOURS - 1 - (last - at);
  if (index < 0) return { heartbeat: rolled, hour: last };
  const next = rolled === heartbeat ? heartbeat.slice() : rolled;
  const [checks, ups] = next[index]!;
  next[index] = [checks + 1, ups + (up ? 1 : 0)];
  return { heartbeat: next, hour: last };
}

/** Checks and ups over the whole strip. */
export function heartbeatTotals(heartbeat: readonly (readonly [number, number])[]): { checks: number; up: number } {
  let checks = 0;
  let up = 0;
  for (const [c, u] of heartbeat) {
    checks += c;
    up += u;
  }
  return { checks, up };
}

// ── Windowing ───────────────────────────────────────────────────────────────────────────────────────────────────

export interface WindowInput {
  /** window.scrollY */
  scrollTop: number;
  /** window.innerHeight */
  viewportHeight: number;
  /** Where the first row starts, in page coordinates. */
  listTop: number;
  rowHeight: number;
  count: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
}

/** The rows [start, end) a window onto the page shows, plus `overscan` rows each side. */
export function windowRange({ scrollTop, viewportHeight, listTop, rowHeight, count, overscan }: WindowInput): { start: number; end: number } {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const top = scrollTop - listTop;
  const first = Math.floor(Math.max(0, top) / rowHeight);
  const last = Math.ceil(Math.max(0, top + viewportHeight) / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, Math.max(start, last + overscan));
  return { start, end };
}
