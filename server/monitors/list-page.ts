// The monitor list a page at a time (GET /api/monitors/page): the server filters, sorts, builds the tree of groups and
// counts, and sends the rows asked for. At 100 000 monitors the whole list is 106 MB of JSON; a screen needs the few
// dozen rows in view, the total (for the scroll height), the status counts and the tags in use.
//
// Reading 100 000 monitors' fields and putting them in name order costs ~100 ms, and a screen asks again as it
// scrolls and searches. So two things are kept (per role: a viewer searches what a viewer sees), both while no
// monitor was added, changed, removed or changed status or maintenance (the version):
// - the base: every monitor's fields in name order, and the tags in use. Every view starts from it, so a search
//   filters a list already in order;
// - the ordering of each recent view (its rows, tree and counts), for the next pages.
// Views sorted by response time or uptime read figures that checks move without a version bump: for those, base and
// ordering are made again once older than ORDER_TTL_MS. The rows themselves are always read fresh.
import type { EventBus } from "../events";
import type { Role } from "../users/public";
import { inNameOrder, orderAndCountNamed, warmSearch, tagsInUse, treeRows, isFiltered, type ListMonitor, type ListRow, type ListView, type StatusCounts, type TagCount } from "./list-view";
import type { PublicMonitor } from "./public";
import { monitorView } from "./viewer";

/** How long a view sorted by response time or uptime is reused when only checks moved those figures. */
export const ORDER_TTL_MS = 2000;
/** Orderings kept at once (views that several screens have open). */
const ORDERS_KEPT = 8;
/** Monitors whose search text is made per turn of the event loop after a base is made (~5 ms each). */
const WARM_SLICE = 5000;

export interface ListPageRequest {
  view: ListView;
  /** Groups whose members are hidden (the screen's collapsed groups). */
  collapsed: readonly number[];
  offset: number;
  limit: number;
}

export interface ListPageRow {
  monitor: PublicMonitor;
  depth: number;
  members: number;
  toggles: boolean;
}

export interface ListPage {
  /** Rows in the whole filtered list (the tree as shown, collapsed groups' members left out). */
  total: number;
  offset: number;
  rows: ListPageRow[];
  /** By status, of the monitors the search and tags let through. */
  counts: StatusCounts;
  /** Every tag in use, with how many monitors carry it. */
  tags: TagCount[];
  /** Every monitor of the instance (an empty instance shows its own message). */
  monitors: number;
}

interface Ordering {
  rows: ListRow<ListMonitor>[];
  counts: StatusCounts;
  tags: TagCount[];
  monitors: number;
  version: number;
  at: number;
}

export interface ListPageSource {
  /** What the ordering reads of every monitor. */
  list(): ListMonitor[];
  get(id: number): PublicMonitor | undefined;
  /** Goes up whenever a monitor is added, changed, removed or changes status. */
  version(): number;
}

/** A counter that goes up when a monitor is added, changed or removed, or changes status or maintenance (not on checks). */
export function listVersion(bus: EventBus): () => number {
  let version = 0;
  for (const type of ["monitor.change", "monitor.status", "maintenance.change"] as const) bus.on(type, () => void version++);
  return () => version;
}

/** Whether a view's order reads figures that checks move (response time, uptime) rather than names and statuses. */
const readsFigures = (view: ListView) => view.sort === "responseTime" || view.sort === "uptime";

interface Base {
  /** Every monitor as the role sees it, in name order. */
  named: ListMonitor[];
  tags: TagCount[];
  version: number;
  at: number;
}

export function createListPages(source: ListPageSource, now: () => number = Date.now) {
  const orders = new Map<string, Ordering>();
  const bases = new Map<"viewer" | "whole", Base>();

  const fresh = (kept: { version: number; at: number } | undefined, version: number, view: ListView) =>
    kept !== undefined && kept.version === version && (!readsFigures(view) || now() - kept.at < ORDER_TTL_MS);

  function baseOf(role: Role, version: number, view: ListView): Base {
    const seenAs = role === "viewer" ? "viewer" : "whole";
    const kept = bases.get(seenAs);
    if (kept && fresh(kept, version, view)) return kept;
    const listed = source.list();
    const all = role === "viewer" ? listed.map((m) => monitorView(role, m)) : listed;
    const made: Base = { named: inNameOrder(all), tags: tagsInUse(all), version, at: now() };
    bases.set(seenAs, made);
    warm(made);
    return made;
  }

  /** The search's text of a new base's monitors, WARM_SLICE at a time in later turns of the event loop. */
  function warm(base: Base, from = 0) {
    // A base replaced meanwhile (a change): its successor warms itself.
    if (from >= base.named.length || (bases.get("whole") !== base && bases.get("viewer") !== base)) return;
    setTimeout(() => {
      warmSearch(base.named.slice(from, from + WARM_SLICE));
      warm(base, from + WARM_SLICE);
    }, 0);
  }

  function ordering(role: Role, request: ListPageRequest): Ordering {
    const seenAs = role === "viewer" ? "viewer" : "whole";
    const key = JSON.stringify([seenAs, request.view, [...request.collapsed].sort((a, b) => a - b)]);
    const version = source.version();
    const kept = orders.get(key);
    if (kept && fresh(kept, version, request.view)) {
      orders.delete(key);
      orders.set(key, kept); // the most recently used last
      return kept;
    }
    const base = baseOf(role, version, request.view);
    const { shown, counts } = orderAndCountNamed(base.named, request.view);
    const rows = treeRows(shown, isFiltered(request.view), new Set(request.collapsed));
    const made: Ordering = { rows, counts, tags: base.tags, monitors: base.named.length, version, at: base.at };
    orders.delete(key);
    orders.set(key, made);
    while (orders.size > ORDERS_KEPT) orders.delete(orders.keys().next().value!);
    return made;
  }

  return {
    page(role: Role, request: ListPageRequest): ListPage {
      const order = ordering(role, request);
      const rows: ListPageRow[] = [];
      for (const row of order.rows.slice(request.offset, request.offset + request.limit)) {
        const monitor = source.get(row.monitor.id);
        // Removed since the ordering was made: left out (the next version bump reorders).
        if (monitor) rows.push({ monitor: monitorView(role, monitor), depth: row.depth, members: row.members, toggles: row.toggles });
      }
      return { total: order.rows.length, offset: request.offset, rows, counts: order.counts, tags: order.tags, monitors: order.monitors };
    },
  };
}

export type ListPages = ReturnType<typeof createListPages>;
