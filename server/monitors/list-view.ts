// The monitor list's view, as the /monitors screen and GET /api/monitors/page share it (pure, unit-tested): display
// status and the triage order, the view in the URL (search, status, sort, tags), filtering and sorting, the tree of
// groups, status and tag counts. The server pages over it; the screen keeps only the rows it shows.
import type { MonitorStatus, PublicMonitor } from "./public";
import { uniqueTags } from "./public";
import { splitTag } from "../tags/public";

// ── Status ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * What a badge shows: a paused monitor is "paused" whatever its last verdict; an active one in a maintenance window is
 * "maintenance" (blue: its checks run, nothing is notified).
 */
export type DisplayStatus = MonitorStatus | "paused" | "maintenance";

export function displayStatus(monitor: Pick<PublicMonitor, "active" | "status" | "maintenance">): DisplayStatus {
  return !monitor.active ? "paused" : monitor.maintenance ? "maintenance" : monitor.status;
}

/** The list's default order: what needs attention first (down, then pending), then maintenance, up, paused; by name within. */
export const TRIAGE_ORDER: Record<DisplayStatus, number> = { down: 0, pending: 1, maintenance: 2, up: 3, paused: 4 };

export function sortForTriage<T extends Pick<PublicMonitor, "active" | "status" | "maintenance" | "name" | "id">>(monitors: readonly T[]): T[] {
  return [...monitors].sort(
    (a, b) => TRIAGE_ORDER[displayStatus(a)] - TRIAGE_ORDER[displayStatus(b)] || a.name.localeCompare(b.name) || a.id - b.id,
  );
}

/** What the list's search, filters, sorts, tree and counts read of a monitor (the server orders on these alone). */
export type ListMonitor = Pick<PublicMonitor, "id" | "name" | "target" | "tags" | "active" | "status" | "maintenance" | "responseTime" | "uptime24h" | "parentId">;

export const STATUS_FILTERS = ["down", "pending", "up", "maintenance", "paused"] as const satisfies readonly DisplayStatus[];

// ── The view (lives in the URL) ─────────────────────────────────────────────────────────────────────────────────

export const SORT_KEYS = ["name", "status", "responseTime", "uptime"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";

/**
 * The direction a sort starts in: names A→Z, status worst first (down, pending, up, paused), the slowest first, the
 * least available first — each puts what needs a look at the top.
 */
export const DEFAULT_DIR: Record<SortKey, SortDir> = { name: "asc", status: "asc", responseTime: "desc", uptime: "asc" };

export interface ListView {
  /** As typed (the search trims and ignores case). */
  q: string;
  status: DisplayStatus | null;
  /** null: the triage order (sortForTriage). */
  sort: SortKey | null;
  dir: SortDir;
  /** Monitors must have every one of these (compared without case). */
  tags: string[];
}

export const DEFAULT_VIEW: ListView = { q: "", status: null, sort: null, dir: "asc", tags: [] };

const isSortKey = (v: string | null): v is SortKey => (SORT_KEYS as readonly string[]).includes(v ?? "");

/** `?q=api&status=down&sort=responseTime&dir=asc&tag=prod&tag=eu` → the view; unknown values are ignored. */
export function parseListView(search: string): ListView {
  const params = new URLSearchParams(search);
  const status = params.get("status");
  const sortParam = params.get("sort");
  const sort = isSortKey(sortParam) ? sortParam : null;
  const dirParam = params.get("dir");
  const dir: SortDir = dirParam === "asc" || dirParam === "desc" ? dirParam : sort ? DEFAULT_DIR[sort] : "asc";
  return {
    q: params.get("q") ?? "",
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? "") ? (status as DisplayStatus) : null,
    sort,
    dir: sort ? dir : "asc",
    tags: uniqueTags(params.getAll("tag")),
  };
}

/** The query string of a view ("" for the default view, else "?…"): only what differs from the defaults. */
export function listViewSearch(view: ListView): string {
  const params = new URLSearchParams();
  if (view.q.trim()) params.set("q", view.q);
  if (view.status) params.set("status", view.status);
  if (view.sort) {
    params.set("sort", view.sort);
    if (view.dir !== DEFAULT_DIR[view.sort]) params.set("dir", view.dir);
  }
  for (const tag of uniqueTags(view.tags)) params.append("tag", tag);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Whether anything narrows the list (the sort does not). */
export const isFiltered = (view: ListView) => view.q.trim() !== "" || view.status !== null || view.tags.length > 0;

// ── Filtering and sorting ───────────────────────────────────────────────────────────────────────────────────────

// What the name order and the search read of each monitor, kept between orderings by id: the list is made of fresh
// objects each time (GET /api/monitors/page reads the store's fields), but names and targets rarely change. `rank`
// (its place among the names ranked last time) holds while the name is the monitor's own; `text` while the target is
// too (a viewer's and an editor's targets differ by a URL's password, which must not re-rank the list).
interface Memo {
  name: string;
  rank: number;
  /** The target `text` was made from. */
  target: string;
  /** Lower-cased name and target, made at the first search. */
  text: string | null;
}
const memos = new Map<number, Memo>();
let ranked = 0;
// Tags arrays are kept by the store between reads (a new array on every edit): their keys are cached on the array.
const tagKeys = new WeakMap<readonly string[], Set<string>>();

function memoOf(m: ListMonitor): Memo | undefined {
  const memo = memos.get(m.id);
  return memo && memo.name === m.name ? memo : undefined;
}

function haystack(m: ListMonitor): string {
  const memo = memoOf(m);
  if (!memo) return `${m.name}\n${m.target}`.toLowerCase();
  if (memo.text === null || memo.target !== m.target) {
    memo.target = m.target;
    memo.text = `${m.name}\n${m.target}`.toLowerCase();
  }
  return memo.text;
}

/**
 * Makes the search's lower-cased text of these monitors ahead of the first search (which would otherwise pay for
 * 100 000 of them at once): the list page calls it a slice at a time, between other work.
 */
export function warmSearch(monitors: readonly ListMonitor[]): void {
  for (const m of monitors) haystack(m);
}

/** The tags a monitor matches: each of its tags, and the bare name of each "name:value" (a filter on a name takes every value). */
function tagKeysOf(m: ListMonitor): Set<string> {
  let keys = tagKeys.get(m.tags);
  if (!keys) {
    keys = new Set(filterTagsOf(m).map((t) => t.toLowerCase()));
    tagKeys.set(m.tags, keys);
  }
  return keys;
}

function filterTagsOf(m: ListMonitor): string[] {
  const out = [...m.tags];
  for (const tag of m.tags) {
    const { name, value } = splitTag(tag);
    if (value !== null && name !== "") out.push(name);
  }
  return out;
}

const wordsOf = (q: string) => q.trim().toLowerCase().split(/\s+/).filter(Boolean);

function hasWords(m: ListMonitor, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = haystack(m);
  for (const w of words) if (!text.includes(w)) return false;
  return true;
}

/** The search: every word (space-separated) must appear in the name or the target, whatever its case. */
export const matchesQuery = (m: ListMonitor, q: string): boolean => hasWords(m, wordsOf(q));

export function hasAllTags(m: ListMonitor, tags: readonly string[]): boolean {
  if (tags.length === 0) return true;
  const keys = tagKeysOf(m);
  for (const t of tags) if (!keys.has(t.toLowerCase())) return false;
  return true;
}

// Names compare as sortForTriage compares them. Not a numeric Intl.Collator ("web 2" before "web 10"): measured in
// Chromium on 5 000 names, its compare made a sort 20× slower (30 ms) than localeCompare's fast path (1.3 ms).
const byName = (a: ListMonitor, b: ListMonitor) => a.name.localeCompare(b.name) || a.id - b.id;

/** Numbers in `dir` order, with the monitors that have none (never checked, no answer) last either way. */
function byNumber(value: (m: ListMonitor) => number | null, dir: SortDir) {
  const sign = dir === "asc" ? 1 : -1;
  return (a: ListMonitor, b: ListMonitor) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0) || byName(a, b);
    return sign * (x - y) || byName(a, b);
  };
}

/** byNumber without its name tie-break: for a stable sort of a list already in name order. */
function byNumberAlone(value: (m: ListMonitor) => number | null, dir: SortDir) {
  const sign = dir === "asc" ? 1 : -1;
  return (a: ListMonitor, b: ListMonitor) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
    return sign * (x - y);
  };
}

const usable = (n: number | null | undefined): number | null => (typeof n === "number" && Number.isFinite(n) ? n : null);

export function compareBy(sort: SortKey, dir: SortDir): (a: ListMonitor, b: ListMonitor) => number {
  const sign = dir === "asc" ? 1 : -1;
  switch (sort) {
    case "name":
      return (a, b) => sign * byName(a, b);
    case "status":
      // The status decides; within one status, names stay A→Z.
      return (a, b) => sign * (TRIAGE_ORDER[displayStatus(a)] - TRIAGE_ORDER[displayStatus(b)]) || byName(a, b);
    case "responseTime":
      // A paused monitor's last response time is old news: it sorts with the ones that have none.
      return byNumber((m) => (m.active ? usable(m.responseTime) : null), dir);
    case "uptime":
      return byNumber((m) => usable(m.uptime24h), dir);
  }
}

/**
 * The monitors by name (byName), from the kept ranks: in one pass while every monitor's name is the one ranked,
 * else sorted once more and ranked again (after a rename, or for another set of monitors). Sorting 100 000
 * names with localeCompare costs tens of milliseconds, which every new view of the list would otherwise pay.
 */
export function inNameOrder<M extends ListMonitor>(monitors: readonly M[]): M[] {
  if (memos.size <= 2 * monitors.length + 1000) {
    // at[rank]: the monitor's index in `monitors`, plus one (0: no monitor of this call has that rank).
    const at = new Int32Array(ranked);
    let fits = true;
    for (let i = 0; i < monitors.length; i++) {
      const memo = memoOf(monitors[i]!);
      if (!memo || at[memo.rank] !== 0) {
        fits = false;
        break;
      }
      at[memo.rank] = i + 1;
    }
    if (fits) {
      const ordered: M[] = [];
      for (let rank = 0; rank < ranked; rank++) if (at[rank] !== 0) ordered.push(monitors[at[rank]! - 1]!);
      return ordered;
    }
  }
  const ordered = [...monitors].sort(byName);
  memos.clear();
  ordered.forEach((m, rank) => memos.set(m.id, { name: m.name, rank, target: m.target, text: null }));
  ranked = ordered.length;
  return ordered;
}

/** Monitors already in name order, stably by their triage status (sign -1: the best first), names A→Z within. */
function byTriage<M extends ListMonitor>(ordered: readonly M[], sign: 1 | -1): M[] {
  const buckets: M[][] = [[], [], [], [], []];
  for (const m of ordered) buckets[TRIAGE_ORDER[displayStatus(m)]]!.push(m);
  if (sign < 0) buckets.reverse();
  return ([] as M[]).concat(...buckets);
}

/**
 * What the list shows, in order: as `compareBy` (or, without a sort key, sortForTriage) would sort it, but from the
 * kept name order. Every sort breaks ties by name, so the name-ordered list is bucketed by status, reversed, or
 * stably sorted by a number alone. With it, in the same pass, the counts by status of what the search and tags let
 * through (statusCounts).
 */
export function orderAndCount<M extends ListMonitor>(monitors: readonly M[], view: ListView): { shown: M[]; counts: StatusCounts } {
  return orderAndCountNamed(inNameOrder(monitors), view);
}

/** orderAndCount of monitors already in name order (inNameOrder): a kept list skips putting them in order again. */
export function orderAndCountNamed<M extends ListMonitor>(named: readonly M[], view: ListView): { shown: M[]; counts: StatusCounts } {
  const words = wordsOf(view.q);
  const counts: StatusCounts = { all: 0, down: 0, pending: 0, up: 0, maintenance: 0, paused: 0 };
  const shown: M[] = [];
  for (const m of named) {
    if (!hasAllTags(m, view.tags) || !hasWords(m, words)) continue;
    const status = displayStatus(m);
    counts.all++;
    counts[status]++;
    if (view.status === null || status === view.status) shown.push(m);
  }
  const sign = view.dir === "asc" ? 1 : -1;
  switch (view.sort) {
    case null:
      return { shown: byTriage(shown, 1), counts };
    case "status":
      return { shown: byTriage(shown, sign), counts };
    case "name":
      return { shown: sign > 0 ? shown : shown.reverse(), counts };
    case "responseTime":
      return { shown: shown.sort(byNumberAlone((m) => (m.active ? usable(m.responseTime) : null), view.dir)), counts };
    case "uptime":
      return { shown: shown.sort(byNumberAlone((m) => usable(m.uptime24h), view.dir)), counts };
  }
}

/** What the list shows, in order (orderAndCount without the counts). */
export const filterAndSort = <M extends ListMonitor>(monitors: readonly M[], view: ListView): M[] => orderAndCount(monitors, view).shown;

/** A row of the list: a monitor, how deep in groups it sits, and its members listed (groups). */
export interface ListRow<M extends ListMonitor = PublicMonitor> {
  monitor: M;
  depth: number;
  /** Direct members of a group among the monitors listed. */
  members: number;
  /** Whether the row opens and closes its members (groups in the unfiltered list). */
  toggles: boolean;
}

/**
 * Whether an id is one of the monitors': a byte per id while ids are dense enough (database ids; a Set of 100 000
 * cost more than the rest of treeRows), else a Set.
 */
function idSet(monitors: readonly ListMonitor[]): (id: number) => boolean {
  let maxId = 0;
  for (const m of monitors) if (Number.isInteger(m.id) && m.id > maxId) maxId = m.id;
  if (maxId > 4 * monitors.length + 100_000 || monitors.some((m) => !Number.isInteger(m.id) || m.id < 0)) {
    const ids = new Set(monitors.map((m) => m.id));
    return (id) => ids.has(id);
  }
  const bytes = new Uint8Array(maxId + 1);
  for (const m of monitors) bytes[m.id] = 1;
  return (id) => bytes[id] === 1;
}

/**
 * The list as a tree: each group followed by its members (indented, in the list's order), unless it is collapsed. A
 * filtered list stays flat (every match shows, whatever group it is in). A member whose group is not listed shows at
 * the top level.
 */
export function treeRows<M extends ListMonitor>(shown: readonly M[], flat: boolean, collapsed: ReadonlySet<number>): ListRow<M>[] {
  const listed = idSet(shown);
  const children = new Map<number, M[]>();
  const top: M[] = [];
  for (const m of shown) {
    if (m.parentId === null || !listed(m.parentId)) top.push(m);
    else {
      const list = children.get(m.parentId);
      if (list) list.push(m);
      else children.set(m.parentId, [m]);
    }
  }
  const count = (m: ListMonitor) => children.get(m.id)?.length ?? 0;
  if (flat) return shown.map((monitor) => ({ monitor, depth: 0, members: count(monitor), toggles: false }));
  const rows: ListRow<M>[] = [];
  const add = (m: M, depth: number) => {
    const members = children.get(m.id) ?? [];
    rows.push({ monitor: m, depth, members: members.length, toggles: members.length > 0 });
    if (!collapsed.has(m.id) && depth < 32) for (const c of members) add(c, depth + 1);
  };
  for (const m of top) add(m, 0);
  return rows;
}

export type StatusCounts = Record<DisplayStatus | "all", number>;

/** Counts by status of the monitors the search and tags let through (the status filter itself is not applied). */
export function statusCounts(monitors: readonly ListMonitor[], view: Pick<ListView, "q" | "tags">): StatusCounts {
  const counts: StatusCounts = { all: 0, down: 0, pending: 0, up: 0, maintenance: 0, paused: 0 };
  const words = wordsOf(view.q);
  for (const m of monitors) {
    if (!hasAllTags(m, view.tags) || !hasWords(m, words)) continue;
    counts.all++;
    counts[displayStatus(m)]++;
  }
  return counts;
}

export interface TagCount {
  tag: string;
  count: number;
}

/**
 * Every tag in use (one entry per tag whatever its case), by name, with how many monitors carry it. A name used with
 * values ("env:prod", "env:test") has an entry of its own too ("env": every monitor with any of its values).
 */
export function tagsInUse(monitors: readonly ListMonitor[]): TagCount[] {
  const byKey = new Map<string, TagCount>();
  for (const m of monitors) {
    if (m.tags.length === 0) continue;
    for (const [key, tag] of countedTagsOf(m)) {
      const entry = byKey.get(key);
      if (entry) entry.count++;
      else byKey.set(key, { tag, count: 1 });
    }
  }
  return [...byKey.values()].sort((a, b) => a.tag.localeCompare(b.tag));
}

// A monitor's tags as tagsInUse counts them (lower-cased key, first spelling), kept per tags array as tagKeys is.
const countedTags = new WeakMap<readonly string[], [string, string][]>();

function countedTagsOf(m: ListMonitor): [string, string][] {
  let counted = countedTags.get(m.tags);
  if (!counted) {
    const seen = new Map<string, string>();
    for (const tag of filterTagsOf(m)) if (!seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
    counted = [...seen];
    countedTags.set(m.tags, counted);
  }
  return counted;
}
