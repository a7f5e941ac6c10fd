import { describe, expect, test } from "bun:test";
import { compareBy, DEFAULT_VIEW, displayStatus, filterAndSort, orderAndCount, sortForTriage, statusCounts, tagsInUse, type ListMonitor, type ListView } from "./list-view";

// filterAndSort orders from kept name ranks and buckets (list-view.ts), for speed at 100 000 monitors. Here it is held
// to the plain definition: filter with the search, status and tags, then Array#sort with compareBy (or sortForTriage),
// on random lists, after renames, on other sets of monitors, and with the same ids under other names.

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const NAMES = ["shop", "Shop", "api", "API gw", "blog", "Ärger", "zeta", "web 2", "web 10", "", "b", "B"];
const TAGS = ["prod", "PROD", "env:eu", "env:us", "db"];
const STATUSES = ["up", "down", "pending"] as const;

function monitors(rand: () => number, n: number, firstId = 1): ListMonitor[] {
  const out: ListMonitor[] = [];
  for (let i = 0; i < n; i++) {
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    out.push({
      id: firstId + i,
      name: rand() < 0.7 ? `${pick(NAMES)} ${Math.floor(rand() * 20)}` : pick(NAMES),
      target: rand() < 0.5 ? `https://host${Math.floor(rand() * 9)}.example/${pick(NAMES)}` : "",
      tags: rand() < 0.5 ? [pick(TAGS), pick(TAGS)].filter((t, k, a) => a.indexOf(t) === k) : [],
      active: rand() > 0.1,
      status: pick(STATUSES),
      maintenance: rand() < 0.1,
      responseTime: rand() < 0.2 ? null : Math.floor(rand() * 5) * 10,
      uptime24h: rand() < 0.2 ? null : [100, 99.5, 90][Math.floor(rand() * 3)]!,
      parentId: null,
    } as ListMonitor);
  }
  return out;
}

const VIEWS: ListView[] = [
  DEFAULT_VIEW,
  ...(["name", "status", "responseTime", "uptime"] as const).flatMap((sort) => (["asc", "desc"] as const).map((dir) => ({ ...DEFAULT_VIEW, sort, dir }))),
  { ...DEFAULT_VIEW, q: "shop" },
  { ...DEFAULT_VIEW, q: "WEB 1", sort: "name", dir: "desc" },
  { ...DEFAULT_VIEW, q: "host3 api" },
  { ...DEFAULT_VIEW, q: "moved" },
  { ...DEFAULT_VIEW, status: "down" },
  { ...DEFAULT_VIEW, status: "paused", sort: "uptime", dir: "asc" },
  { ...DEFAULT_VIEW, tags: ["prod"] },
  { ...DEFAULT_VIEW, tags: ["env"], status: "up", sort: "responseTime", dir: "desc" },
];

/** The search and tags as docs/monitors.md words them, with nothing kept between calls. */
const plainQuery = (m: ListMonitor, q: string) => q.trim().toLowerCase().split(/\s+/).filter(Boolean).every((w) => `${m.name}\n${m.target}`.toLowerCase().includes(w));
const plainTags = (m: ListMonitor, tags: readonly string[]) => {
  const keys = m.tags.flatMap((t) => [t.toLowerCase(), ...(t.includes(":") && t.indexOf(":") > 0 ? [t.slice(0, t.indexOf(":")).toLowerCase()] : [])]);
  return tags.every((t) => keys.includes(t.toLowerCase()));
};

/** The definition: a plain filter and Array#sort with the comparators. */
function reference(list: readonly ListMonitor[], view: ListView): ListMonitor[] {
  const shown = list.filter((m) => (view.status === null || displayStatus(m) === view.status) && plainTags(m, view.tags) && plainQuery(m, view.q));
  return view.sort === null ? sortForTriage(shown) : shown.sort(compareBy(view.sort, view.dir));
}

const ids = (list: readonly ListMonitor[]) => list.map((m) => m.id);

function expectAsDefined(list: readonly ListMonitor[]) {
  for (const view of VIEWS) {
    expect({ view, ids: ids(filterAndSort(list, view)) }).toEqual({ view, ids: ids(reference(list, view)) });
    const { counts } = orderAndCount(list, view);
    expect(counts).toEqual(statusCounts(list, view));
  }
}

describe("filterAndSort from kept name ranks", () => {
  test("orders and counts random lists exactly as the comparators do", () => {
    for (let seed = 1; seed <= 20; seed++) expectAsDefined(monitors(random(seed), 150));
  });

  test("after renames, added and removed monitors, another set, and the same ids under other names", () => {
    const rand = random(42);
    let list = monitors(rand, 200);
    expectAsDefined(list);
    expectAsDefined(list); // the kept ranks, used
    list = list.map((m, i) => (i % 17 === 0 ? { ...m, name: `renamed ${200 - i}` } : m)); // renamed
    expectAsDefined(list);
    list = list.filter((_, i) => i % 5 !== 0).concat(monitors(rand, 30, 1000)); // removed and added
    expectAsDefined(list);
    expectAsDefined(list.slice(0, 40)); // a subset of the ranked monitors
    expectAsDefined(monitors(random(7), 120)); // the same ids, other names and targets
    expectAsDefined(list);
    expectAsDefined(list.map((m) => ({ ...m, target: `${m.target}/moved` }))); // targets changed: the search reads them
  });

  test("does not reorder its input; tags are counted from each monitor's own list", () => {
    const list = monitors(random(3), 50);
    const before = ids(list);
    filterAndSort(list, { ...DEFAULT_VIEW, sort: "name", dir: "desc" });
    expect(ids(list)).toEqual(before);
    const retagged = list.map((m) => ({ ...m, tags: ["solo"] }));
    expect(tagsInUse(retagged)).toEqual([{ tag: "solo", count: 50 }]);
  });
});
