import { describe, expect, test } from "bun:test";
import type { PublicMonitor } from "../../api/monitors";
import { statusHref } from "../../components/FilterPills";
import {
  bumpHeartbeat,
  DEFAULT_VIEW,
  filterAndSort,
  heartbeatTotals,
  HOUR_MS,
  isFiltered,
  listViewSearch,
  matchesQuery,
  normalizeHeartbeat,
  parseListView,
  rollHeartbeat,
  statusCounts,
  tagsInUse,
  toggleSort,
  toggleTag,
  treeRows,
  windowRange,
  type HeartbeatPair,
  type ListView,
} from "./listModel";
import { sortForTriage } from "./model";
import { publicMonitor } from "./testing";

const monitor = (over: Partial<PublicMonitor> = {}): PublicMonitor =>
  publicMonitor({ createdAt: 0, updatedAt: 0, status: "up", heartbeat: Array.from({ length: 24 }, () => [0, 0] as [number, number]), ...over });

const view = (over: Partial<ListView> = {}): ListView => ({ ...DEFAULT_VIEW, ...over });
const names = (list: PublicMonitor[]) => list.map((m) => m.name);

describe("the view in the URL", () => {
  test("parses every parameter; unknown values fall back to the defaults", () => {
    expect(parseListView("")).toEqual(DEFAULT_VIEW);
    expect(parseListView("?q=Api%20gw&status=down&sort=responseTime&dir=asc&tag=prod&tag=eu")).toEqual({
      q: "Api gw",
      status: "down",
      sort: "responseTime",
      dir: "asc",
      tags: ["prod", "eu"],
    });
    expect(parseListView("?status=broken&sort=colour&dir=up")).toEqual(DEFAULT_VIEW);
    // The default direction of each key.
    expect(parseListView("?sort=name").dir).toBe("asc");
    expect(parseListView("?sort=responseTime").dir).toBe("desc");
    expect(parseListView("?sort=uptime").dir).toBe("asc");
    // A direction without a key means nothing.
    expect(parseListView("?dir=desc")).toEqual(DEFAULT_VIEW);
    // Repeated tags differing only in case, and blank ones, count once.
    expect(parseListView("?tag=Prod&tag=prod&tag=&tag=%20").tags).toEqual(["Prod"]);
  });

  test("the existing ?status= links keep working", () => {
    for (const s of ["down", "pending", "up", "paused"]) expect(parseListView(`?status=${s}`).status).toBe(s as never);
  });

  test("writes only what differs from the defaults, and round-trips", () => {
    expect(listViewSearch(DEFAULT_VIEW)).toBe("");
    expect(listViewSearch(view({ q: "   " }))).toBe("");
    expect(listViewSearch(view({ sort: "responseTime", dir: "desc" }))).toBe("?sort=responseTime");
    expect(listViewSearch(view({ sort: "responseTime", dir: "asc" }))).toBe("?sort=responseTime&dir=asc");
    const full = view({ q: "a&b=c", status: "down", sort: "name", dir: "desc", tags: ["prod", "eu west"] });
    const text = listViewSearch(full);
    expect(text).toBe("?q=a%26b%3Dc&status=down&sort=name&dir=desc&tag=prod&tag=eu+west");
    expect(parseListView(text)).toEqual(full);
  });

  test("toggling a sort key: a new key starts in its default direction, the same key reverses", () => {
    const byTime = toggleSort(DEFAULT_VIEW, "responseTime");
    expect(byTime).toMatchObject({ sort: "responseTime", dir: "desc" });
    expect(toggleSort(byTime, "responseTime")).toMatchObject({ sort: "responseTime", dir: "asc" });
    expect(toggleSort(byTime, "name")).toMatchObject({ sort: "name", dir: "asc" });
  });

  test("toggling a tag ignores case", () => {
    const one = toggleTag(DEFAULT_VIEW, "Prod");
    expect(one.tags).toEqual(["Prod"]);
    expect(toggleTag(toggleTag(one, "eu"), "prod").tags).toEqual(["eu"]);
  });

  test("isFiltered: search, status or tags; not the sort", () => {
    expect(isFiltered(DEFAULT_VIEW)).toBe(false);
    expect(isFiltered(view({ sort: "name" }))).toBe(false);
    expect(isFiltered(view({ q: "x" }))).toBe(true);
    expect(isFiltered(view({ status: "up" }))).toBe(true);
    expect(isFiltered(view({ tags: ["a"] }))).toBe(true);
  });

  test("status pills keep the other parameters", () => {
    expect(statusHref("/monitors", "", "down")).toBe("/monitors?status=down");
    expect(statusHref("/monitors", "?status=down", null)).toBe("/monitors");
    expect(statusHref("/monitors", "?q=api&status=up&tag=prod&tag=eu", "down")).toBe("/monitors?q=api&status=down&tag=prod&tag=eu");
    expect(statusHref("/monitors", "?q=api&sort=name", null)).toBe("/monitors?q=api&sort=name");
    expect(statusHref("/agents", "?status=offline", "online")).toBe("/agents?status=online");
  });
});

describe("filtering and sorting", () => {
  const list = [
    monitor({ id: 1, name: "Checkout API", target: "https://shop.example.com/health", tags: ["prod", "EU"], status: "up", responseTime: 120, uptime24h: 100 }),
    monitor({ id: 2, name: "web 10", type: "tcp", target: "db.internal:5432", url: "", tags: ["prod"], status: "down", responseTime: null, uptime24h: 50 }),
    monitor({ id: 3, name: "web 2", type: "dns", target: "example.org A", url: "", tags: ["staging"], status: "pending", responseTime: 800, uptime24h: null }),
    monitor({ id: 4, name: "Backups", type: "push", target: "", url: "", status: "up", active: false, responseTime: 5, uptime24h: 99.5 }),
    monitor({ id: 5, name: "Auth", target: "https://auth.example.com/", status: "up", responseTime: 40, uptime24h: 99.9 }),
  ];

  test("the search looks in name and target, without case; every word must match", () => {
    expect(names(filterAndSort(list, view({ q: "CHECKOUT" })))).toEqual(["Checkout API"]);
    expect(names(filterAndSort(list, view({ q: "5432" })))).toEqual(["web 10"]);
    expect(names(filterAndSort(list, view({ q: "example.org" })))).toEqual(["web 2"]);
    expect(names(filterAndSort(list, view({ q: "  example  health " })))).toEqual(["Checkout API"]);
    expect(filterAndSort(list, view({ q: "nothing-like-this" }))).toEqual([]);
    expect(matchesQuery(list[0]!, "")).toBe(true);
  });

  test("status filter uses the displayed status (paused whatever the verdict)", () => {
    expect(names(filterAndSort(list, view({ status: "paused" })))).toEqual(["Backups"]);
    expect(names(filterAndSort(list, view({ status: "up" })))).toEqual(["Auth", "Checkout API"]);
  });

  test("tags: monitors having every chosen tag, without case", () => {
    expect(names(filterAndSort(list, view({ tags: ["prod"] })))).toEqual(["web 10", "Checkout API"]);
    expect(names(filterAndSort(list, view({ tags: ["PROD", "eu"] })))).toEqual(["Checkout API"]);
    expect(filterAndSort(list, view({ tags: ["prod", "staging"] }))).toEqual([]);
  });

  test("without a sort key the order is the triage order", () => {
    expect(filterAndSort(list, DEFAULT_VIEW)).toEqual(sortForTriage(list));
    expect(names(filterAndSort(list, DEFAULT_VIEW))).toEqual(["web 10", "web 2", "Auth", "Checkout API", "Backups"]);
  });

  test("by name: A→Z as the triage order compares names; desc reverses", () => {
    expect(names(filterAndSort(list, view({ sort: "name", dir: "asc" })))).toEqual(["Auth", "Backups", "Checkout API", "web 10", "web 2"]);
    expect(names(filterAndSort(list, view({ sort: "name", dir: "desc" })))).toEqual(["web 2", "web 10", "Checkout API", "Backups", "Auth"]);
  });

  test("by status: worst first (asc) or last (desc), names A→Z within a status", () => {
    expect(names(filterAndSort(list, view({ sort: "status", dir: "asc" })))).toEqual(["web 10", "web 2", "Auth", "Checkout API", "Backups"]);
    expect(names(filterAndSort(list, view({ sort: "status", dir: "desc" })))).toEqual(["Backups", "Auth", "Checkout API", "web 2", "web 10"]);
  });

  test("by response time: slowest first by default; no figure (or paused) last either way", () => {
    expect(names(filterAndSort(list, view({ sort: "responseTime", dir: "desc" })))).toEqual(["web 2", "Checkout API", "Auth", "Backups", "web 10"]);
    expect(names(filterAndSort(list, view({ sort: "responseTime", dir: "asc" })))).toEqual(["Auth", "Checkout API", "web 2", "Backups", "web 10"]);
  });

  test("by response time: numbers compare as numbers (9 ms < 80 ms < 100 ms < 1 200 ms), not as text", () => {
    const timed = [9, 1200, 100, 80].map((ms, i) => monitor({ id: 10 + i, name: `t${i}`, status: "up", responseTime: ms }));
    const times = (v: ListView) => filterAndSort(timed, v).map((m) => m.responseTime);
    expect(times(view({ sort: "responseTime", dir: "asc" }))).toEqual([9, 80, 100, 1200]);
    expect(times(view({ sort: "responseTime", dir: "desc" }))).toEqual([1200, 100, 80, 9]);
  });

  test("by uptime: least available first by default; none last", () => {
    expect(names(filterAndSort(list, view({ sort: "uptime", dir: "asc" })))).toEqual(["web 10", "Backups", "Auth", "Checkout API", "web 2"]);
    expect(names(filterAndSort(list, view({ sort: "uptime", dir: "desc" })))).toEqual(["Checkout API", "Auth", "Backups", "web 10", "web 2"]);
  });

  test("does not reorder its input", () => {
    const copy = list.slice();
    filterAndSort(list, view({ sort: "name" }));
    expect(list).toEqual(copy);
  });

  test("status counts follow the search and tags, not the status filter", () => {
    expect(statusCounts(list, DEFAULT_VIEW)).toEqual({ all: 5, down: 1, pending: 1, up: 2, maintenance: 0, paused: 1 });
    expect(statusCounts(list, view({ tags: ["prod"] }))).toEqual({ all: 2, down: 1, pending: 0, up: 1, maintenance: 0, paused: 0 });
    expect(statusCounts(list, view({ q: "example" }))).toEqual({ all: 3, down: 0, pending: 1, up: 2, maintenance: 0, paused: 0 });
  });

  test("tags in use: one per tag whatever its case, by name, with counts", () => {
    const more = [...list, monitor({ id: 6, name: "x", tags: ["eu", "Prod"] })];
    expect(tagsInUse(more)).toEqual([
      { tag: "EU", count: 2 },
      { tag: "prod", count: 3 },
      { tag: "staging", count: 1 },
    ]);
  });

  test("name:value tags: the name has an entry of its own, and filtering by it takes every value", () => {
    const kuma = [
      monitor({ id: 1, name: "a", tags: ["env:prod", "web"] }),
      monitor({ id: 2, name: "b", tags: ["Env:staging", "env:canary"] }),
      monitor({ id: 3, name: "c", tags: ["env"] }),
      monitor({ id: 4, name: "d", tags: ["web"] }),
    ];
    expect(tagsInUse(kuma)).toEqual([
      { tag: "env", count: 3 },
      { tag: "env:canary", count: 1 },
      { tag: "env:prod", count: 1 },
      { tag: "Env:staging", count: 1 },
      { tag: "web", count: 2 },
    ]);
    const names = (tags: string[]) => filterAndSort(kuma, view({ tags })).map((m) => m.name);
    expect(names(["env"])).toEqual(["a", "b", "c"]);
    expect(names(["ENV:prod"])).toEqual(["a"]);
    expect(names(["env", "web"])).toEqual(["a"]);
  });

  test("5 000 monitors filter and sort in a few milliseconds", () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      monitor({ id: i + 1, name: `svc ${i}`, target: `https://h${i}.example.com/`, tags: i % 3 ? ["prod"] : [], responseTime: (i * 37) % 1000, status: i % 50 ? "up" : "down" }),
    );
    const started = performance.now();
    filterAndSort(many, view({ q: "h12", sort: "responseTime", dir: "desc", tags: ["prod"] }));
    filterAndSort(many, DEFAULT_VIEW);
    filterAndSort(many, view({ sort: "name" }));
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("heartbeat strip", () => {
  const strip = (...last: HeartbeatPair[]): HeartbeatPair[] => normalizeHeartbeat(last);

  test("normalize pads at the old end to 24 hours", () => {
    expect(normalizeHeartbeat(undefined)).toHaveLength(24);
    const s = strip([3, 2]);
    expect(s).toHaveLength(24);
    expect(s[23]).toEqual([3, 2]);
    expect(s[0]).toEqual([0, 0]);
    expect(normalizeHeartbeat(Array.from({ length: 30 }, (_, i) => [i, i] as HeartbeatPair))[0]).toEqual([6, 6]);
  });

  test("a later hour rolls the strip: old hours drop off, empty ones come in", () => {
    const s = strip([1, 1], [2, 1], [3, 0]);
    expect(rollHeartbeat(s, 100, 100)).toBe(s);
    expect(rollHeartbeat(s, 100, 99)).toBe(s);
    const rolled = rollHeartbeat(s, 100, 102);
    expect(rolled).toHaveLength(24);
    expect(rolled.slice(-5)).toEqual([[1, 1], [2, 1], [3, 0], [0, 0], [0, 0]]);
    expect(rollHeartbeat(s, 100, 200)).toEqual(strip());
  });

  test("a check counts in its hour; a check of a new hour rolls first; a too-old one is dropped", () => {
    const hour = 480_000;
    const at = (h: number, minute = 5) => h * HOUR_MS + minute * 60_000;
    let s = strip([4, 4]);
    let r = bumpHeartbeat(s, hour, at(hour), true);
    expect(r.hour).toBe(hour);
    expect(r.heartbeat[23]).toEqual([5, 5]);
    expect(s[23]).toEqual([4, 4]); // not mutated
    r = bumpHeartbeat(r.heartbeat, r.hour, at(hour + 1), false);
    expect(r.hour).toBe(hour + 1);
    expect(r.heartbeat.slice(-2)).toEqual([[5, 5], [1, 0]]);
    // A late check of the hour before lands in its own hour.
    r = bumpHeartbeat(r.heartbeat, r.hour, at(hour, 59), false);
    expect(r.heartbeat.slice(-2)).toEqual([[6, 5], [1, 0]]);
    s = r.heartbeat;
    r = bumpHeartbeat(s, r.hour, at(hour - 30), true);
    expect(r.heartbeat).toEqual(s);
    expect(heartbeatTotals(r.heartbeat)).toEqual({ checks: 7, up: 5 });
  });
});

describe("window range", () => {
  const base = { scrollTop: 0, viewportHeight: 800, listTop: 300, rowHeight: 80, count: 5000, overscan: 5 };

  test("at the top: the rows the viewport reaches plus overscan", () => {
    // 500 px of list visible → rows 0-6 (7 rows) + 5 below.
    expect(windowRange(base)).toEqual({ start: 0, end: 12 });
  });

  test("scrolled into the middle", () => {
    expect(windowRange({ ...base, scrollTop: 300 + 80 * 1000 })).toEqual({ start: 995, end: 1015 });
  });

  test("at the end and past it; empty lists", () => {
    expect(windowRange({ ...base, scrollTop: 300 + 80 * 4995 })).toEqual({ start: 4990, end: 5000 });
    expect(windowRange({ ...base, scrollTop: 10_000_000 })).toEqual({ start: 5000, end: 5000 });
    expect(windowRange({ ...base, count: 0 })).toEqual({ start: 0, end: 0 });
    expect(windowRange({ ...base, count: 3 })).toEqual({ start: 0, end: 3 });
  });

  test("never more rows than the viewport holds plus twice the overscan (+2 partial rows)", () => {
    for (let y = 0; y < 400_000; y += 7919) {
      const { start, end } = windowRange({ ...base, scrollTop: y });
      expect(end - start).toBeLessThanOrEqual(Math.ceil(800 / 80) + 2 * 5 + 1);
    }
  });
});

describe("groups in the list", () => {
  const g = monitor({ id: 1, name: "Shop", type: "group" });
  const inner = monitor({ id: 2, name: "Payments", type: "group", parentId: 1 });
  const a = monitor({ id: 3, name: "api", parentId: 1 });
  const b = monitor({ id: 4, name: "card", parentId: 2 });
  const alone = monitor({ id: 5, name: "blog" });
  const rows = (shown: PublicMonitor[], flat = false, collapsed: number[] = []) => treeRows(shown, flat, new Set(collapsed)).map((r) => [r.monitor.name, r.depth, r.members, r.toggles]);

  test("members follow their group, indented, in the list's order; collapsed groups hide theirs", () => {
    const sorted = [alone, g, inner, a, b];
    expect(rows(sorted)).toEqual([["blog", 0, 0, false], ["Shop", 0, 2, true], ["Payments", 1, 1, true], ["card", 2, 0, false], ["api", 1, 0, false]]);
    expect(rows(sorted, false, [2])).toEqual([["blog", 0, 0, false], ["Shop", 0, 2, true], ["Payments", 1, 1, true], ["api", 1, 0, false]]);
    expect(rows(sorted, false, [1])).toEqual([["blog", 0, 0, false], ["Shop", 0, 2, true]]);
  });

  test("a filtered list is flat; a member whose group is filtered out shows at the top level", () => {
    expect(rows([g, b, alone], true)).toEqual([["Shop", 0, 0, false], ["card", 0, 0, false], ["blog", 0, 0, false]]);
    expect(rows([g, a], true)).toEqual([["Shop", 0, 1, false], ["api", 0, 0, false]]);
    expect(rows([g, b])).toEqual([["Shop", 0, 0, false], ["card", 0, 0, false]]);
  });
});
