// Which rows the monitor list shows, a window at a time (GET /api/monitors/page): the server searches, filters, sorts,
// builds the tree of groups and counts; the screen holds the rows around what is in view (MARGIN rows beyond each
// edge, fetched in one call so they share one ordering) and the total that gives the page its height. At 100 000
// monitors the whole list was 106 MB and 10 s to the first row; a window is a few kilobytes.
//
// The monitors of the held rows go to the list store (store.ts), which live checks update row by row. What can move
// rows — a status, an edit, a monitor added or removed, maintenance, or a check when sorted by figures — asks for the
// held rows again (refresh), at most once per REFRESH_MS: the server reuses its ordering until something changed.
import type { ListPage } from "../../../../server/monitors/list-page";
import type { ListView, StatusCounts, TagCount } from "../listModel";
import type { ListStore } from "./store";

/** Rows fetched beyond each edge of the window; the next fetch starts when the window comes within half of it. */
export const MARGIN = 100;
/** The most rows one call may ask for (the server's limit). */
export const FETCH_MAX = 500;
/** A list that changed is asked for again at most this often; the first change waits REFRESH_DELAY_MS (bursts). */
export const REFRESH_MS = 1000;
export const REFRESH_DELAY_MS = 150;

export interface PageQuery {
  view: ListView;
  /** Groups whose members are hidden. */
  collapsed: readonly number[];
}

export type FetchPage = (query: PageQuery, offset: number, limit: number) => Promise<ListPage>;

/** Where a monitor sits in the list (its data is in the store). */
export interface RowPlace {
  id: number;
  depth: number;
  members: number;
  toggles: boolean;
}

export interface PagedSnapshot {
  /** loading: nothing to show yet for this view; error: its first fetch failed (a later one keeps the rows shown). */
  phase: "loading" | "error" | "loaded";
  message: string | null;
  /** Rows of the whole list as shown (collapsed groups' members left out). */
  total: number;
  counts: StatusCounts;
  tags: TagCount[];
  /** Monitors of the instance. */
  monitors: number;
  /** The rows held: [offset, offset + rows.length). */
  offset: number;
  rows: RowPlace[];
  /** The held rows are of the view asked for last (not of the one before, still shown while it loads). */
  current: boolean;
}

export interface PagedListOptions {
  fetchPage: FetchPage;
  store: ListStore;
  /** The message of a failed fetch. */
  errorText: (error: unknown) => string;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** The place of row `index`, or undefined when it is not held (a fast scroll: shown as a placeholder). */
export const placeAt = (list: Pick<PagedSnapshot, "rows" | "offset">, index: number): RowPlace | undefined =>
  index < list.offset ? undefined : list.rows[index - list.offset];

const EMPTY_COUNTS: StatusCounts = { all: 0, down: 0, pending: 0, up: 0, maintenance: 0, paused: 0 };

export function createPagedList(options: PagedListOptions) {
  const { fetchPage, store, errorText } = options;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));

  let query: PageQuery | null = null;
  let queryKey = "";
  let heldKey: string | null = null;
  let want = { start: 0, end: 30 };
  let snapshot: PagedSnapshot = { phase: "loading", message: null, total: 0, counts: EMPTY_COUNTS, tags: [], monitors: 0, offset: 0, rows: [], current: false };
  /**
   * The call out, if any. One at a time per view; a new view (a search typed) does not wait for the call of the view
   * before (a refresh of 100 000 rows' order may be out): it asks at once, and that answer is dropped.
   */
  let inFlight: { key: string; replacing: boolean } | null = null;
  /** Calls made, and the newest whose answer was shown: an older answer (A → B → A typed fast) is never shown after it. */
  let issued = 0;
  let shown = 0;
  /** The held rows may be out of date (something changed): ask again when the refresh timer says. */
  let stale = false;
  /** The next answer replaces every strip (after a reconnect: checks may have been missed). */
  let fresh = true;
  /** The last fetch of this view failed: not retried on its own (only a new window, view, change or retry asks). */
  let failed = false;
  let lastFetchAt = -Infinity;
  let refreshTimer: unknown = null;
  const listeners = new Set<() => void>();

  const tell = (next: Partial<PagedSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of [...listeners]) listener();
  };

  function needsFetch(): boolean {
    if (!query || failed) return false;
    if (inFlight) return inFlight.key !== queryKey;
    if (heldKey !== queryKey || stale) return true;
    const { offset, rows, total } = snapshot;
    const end = offset + rows.length;
    const lowOk = offset === 0 || want.start - offset >= MARGIN / 2;
    const highOk = end >= total || end - want.end >= MARGIN / 2;
    return !(lowOk && highOk);
  }

  function pump() {
    if (!needsFetch()) return;
    const asked = query!;
    const key = queryKey;
    const offset = Math.max(0, want.start - MARGIN);
    const limit = Math.max(1, Math.min(FETCH_MAX, want.end - offset + MARGIN));
    // A call superseded while it was to replace every strip hands that on.
    const replacing = fresh || (inFlight?.replacing ?? false);
    if (inFlight) inFlight.replacing = false;
    const mine = { key, replacing, seq: ++issued };
    inFlight = mine;
    stale = false;
    fresh = false;
    lastFetchAt = now();
    fetchPage(asked, offset, limit).then(
      (page) => {
        if (inFlight === mine) inFlight = null;
        if (key === queryKey && mine.seq > shown) {
          shown = mine.seq;
          store.setRows(page.rows.map((r) => r.monitor), replacing);
          heldKey = key;
          tell({
            phase: "loaded",
            message: null,
            total: page.total,
            counts: page.counts,
            tags: page.tags,
            monitors: page.monitors,
            offset: page.offset,
            rows: page.rows.map(({ monitor, depth, members, toggles }) => ({ id: monitor.id, depth, members, toggles })),
            current: true,
          });
        } else if (key !== queryKey && mine.replacing) fresh = true; // a view changed while it was out: the strips are still to be replaced
        pump();
      },
      (error: unknown) => {
        if (inFlight === mine) inFlight = null;
        if (mine.replacing) fresh = true;
        // Of a view no longer shown, or superseded by a newer call: that one's outcome counts.
        if (key !== queryKey || inFlight || mine.seq < shown) return pump();
        failed = true;
        // The first fetch of a view shows its error; a failed refresh keeps the rows shown.
        if (heldKey !== key && snapshot.phase !== "loaded") tell({ phase: "error", message: errorText(error) });
      },
    );
  }

  return {
    /** The view and collapsed groups to show (the URL and the screen's state). The rows shown stay until the answer. */
    setQuery(next: PageQuery) {
      const key = JSON.stringify([next.view, [...next.collapsed].sort((a, b) => a - b)]);
      query = next;
      if (key === queryKey) return pump();
      queryKey = key;
      failed = false;
      if (snapshot.current) tell({ current: false });
      pump();
    },

    /** The rows in view, [start, end): fetches around them when the held rows do not reach far enough. */
    setWindow(start: number, end: number) {
      if (start === want.start && end === want.end) return;
      want = { start, end: Math.max(start, end) };
      failed = false;
      pump();
    },

    /** Something that can move rows changed: the held rows are asked for again (throttled). */
    refresh() {
      if (refreshTimer !== null) return;
      const wait = Math.max(REFRESH_DELAY_MS, REFRESH_MS - (now() - lastFetchAt));
      refreshTimer = setTimer(() => {
        refreshTimer = null;
        stale = true;
        failed = false;
        pump();
      }, wait);
    },

    /** Reconnected (or Retry): everything again now, strips included. */
    reload() {
      stale = fresh = true;
      failed = false;
      if (snapshot.phase === "error") tell({ phase: "loading", message: null });
      pump();
    },

    snapshot: (): PagedSnapshot => snapshot,

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /** The screen closed: no more fetches until it asks again (setQuery). */
    dispose() {
      if (refreshTimer !== null) clearTimer(refreshTimer);
      refreshTimer = null;
      query = null;
    },
  };
}

export type PagedList = ReturnType<typeof createPagedList>;
