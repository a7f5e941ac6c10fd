// The monitor list a page at a time (GET /api/monitors/page): the server filters, sorts, builds the tree of groups and
// counts, and sends the rows asked for. At 100 000 monitors the whole list is 106 MB of JSON; a screen needs the few
// dozen rows in view, the total (for the scroll height), the status counts and the tags in use.
//
// Ordering 100 000 monitors takes a few hundred milliseconds, and a screen asks for the next rows as it scrolls: the
// order of a view is kept (per role, as a viewer searches what a viewer sees) and reused while no monitor was added,
// changed, removed or changed status, and for at most ORDER_TTL_MS, so response times and uptimes moved by checks
// reorder a sorted list within that time. The rows themselves are always read fresh.
import type { EventBus } from "../events";
import type { Role } from "../users/public";
import { filterAndSort, statusCounts, tagsInUse, treeRows, isFiltered, type ListMonitor, type ListView, type StatusCounts, type TagCount } from "./list-view";
import type { PublicMonitor } from "./public";
import { monitorView } from "./viewer";

/** How long an ordering is reused when only checks (response times, uptimes) moved. */
export const ORDER_TTL_MS = 2000;
/** Orderings kept at once (views that several screens have open). */
const ORDERS_KEPT = 8;

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
  rows: { id: number; depth: number; members: number; toggles: boolean }[];
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

export function createListPages(source: ListPageSource, now: () => number = Date.now) {
  const orders = new Map<string, Ordering>();

  function ordering(role: Role, request: ListPageRequest): Ordering {
    const seenAs = role === "viewer" ? "viewer" : "whole";
    const key = JSON.stringify([seenAs, request.view, [...request.collapsed].sort((a, b) => a - b)]);
    const version = source.version();
    const kept = orders.get(key);
    if (kept && kept.version === version && now() - kept.at < ORDER_TTL_MS) {
      orders.delete(key);
      orders.set(key, kept); // the most recently used last
      return kept;
    }
    const all = source.list().map((m) => monitorView(role, m));
    const shown = filterAndSort(all, request.view);
    const rows = treeRows(shown, isFiltered(request.view), new Set(request.collapsed)).map(({ monitor, depth, members, toggles }) => ({ id: monitor.id, depth, members, toggles }));
    const made: Ordering = { rows, counts: statusCounts(all, request.view), tags: tagsInUse(all), monitors: all.length, version, at: now() };
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
        const monitor = source.get(row.id);
        // Removed since the ordering was made: left out (the next version bump reorders).
        if (monitor) rows.push({ monitor: monitorView(role, monitor), depth: row.depth, members: row.members, toggles: row.toggles });
      }
      return { total: order.rows.length, offset: request.offset, rows, counts: order.counts, tags: order.tags, monitors: order.monitors };
    },
  };
}

export type ListPages = ReturnType<typeof createListPages>;
