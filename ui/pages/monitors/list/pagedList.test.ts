import { describe, expect, test } from "bun:test";
import type { ListPage } from "../../../../server/monitors/list-page";
import { DEFAULT_VIEW, filterAndSort, statusCounts, tagsInUse, treeRows, isFiltered, type ListView } from "../listModel";
import { publicMonitor } from "../testing";
import { createPagedList, placeAt, FETCH_MAX, MARGIN, REFRESH_DELAY_MS, REFRESH_MS, type PageQuery } from "./pagedList";
import { createListStore } from "./store";
import type { PublicMonitor } from "../../../api/monitors";

const monitors = (n: number): PublicMonitor[] =>
  Array.from({ length: n }, (_, i) => publicMonitor({ id: i + 1, name: `m${String(i + 1).padStart(5, "0")}`, status: i % 10 === 0 ? "down" : "up" }));

/** A server in memory (the same list logic GET /api/monitors/page runs) whose answers the test releases. */
function setup(all: PublicMonitor[]) {
  const calls: { query: PageQuery; offset: number; limit: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  const timers: { fn: () => void; at: number }[] = [];
  let now = 0;
  const answer = (query: PageQuery, offset: number, limit: number): ListPage => {
    const shown = filterAndSort(all, query.view);
    const rows = treeRows(shown, isFiltered(query.view), new Set(query.collapsed));
    return {
      total: rows.length,
      offset,
      rows: rows.slice(offset, offset + limit).map(({ monitor, depth, members, toggles }) => ({ monitor, depth, members, toggles })),
      counts: statusCounts(all, query.view),
      tags: tagsInUse(all),
      monitors: all.length,
    };
  };
  const store = createListStore();
  const paged = createPagedList({
    store,
    errorText: (e) => String((e as Error).message),
    now: () => now,
    setTimer: (fn, ms) => timers.push({ fn, at: now + ms }),
    clearTimer: () => {},
    fetchPage: (query, offset, limit) =>
      new Promise<ListPage>((resolve, reject) => calls.push({ query, offset, limit, resolve: () => resolve(answer(query, offset, limit)), reject })),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    store,
    paged,
    calls,
    /** Answers the oldest open call. */
    async answer() {
      calls.shift()!.resolve();
      await settle();
    },
    async fail(message: string) {
      calls.shift()!.reject(new Error(message));
      await settle();
    },
    advance(ms: number) {
      now += ms;
      for (const timer of timers.splice(0).sort((a, b) => a.at - b.at)) {
        if (timer.at <= now) timer.fn();
        else timers.push(timer);
      }
    },
    ids: () => paged.snapshot().rows.map((r) => r.id),
  };
}

const query = (view: Partial<ListView> = {}): PageQuery => ({ view: { ...DEFAULT_VIEW, ...view }, collapsed: [] });

describe("the list a window at a time", () => {
  test("the first answer holds the window and its margin; the store gets those monitors only", async () => {
    const s = setup(monitors(1000));
    expect(s.paged.snapshot().phase).toBe("loading");
    s.paged.setQuery(query());
    expect(s.calls).toHaveLength(1);
    expect([s.calls[0].offset, s.calls[0].limit]).toEqual([0, 30 + MARGIN]);
    await s.answer();
    const snap = s.paged.snapshot();
    expect([snap.phase, snap.total, snap.monitors, snap.offset, snap.rows.length, snap.current]).toEqual(["loaded", 1000, 1000, 0, 130, true]);
    expect(snap.counts).toMatchObject({ all: 1000, down: 100, up: 900 });
    // The triage order: down first.
    expect(placeAt(s.paged.snapshot(), 0)!.id).toBe(1);
    expect(placeAt(s.paged.snapshot(), 1)!.id).toBe(11);
    expect(placeAt(s.paged.snapshot(), 130)).toBeUndefined();
    expect(s.store.size).toBe(130);
    expect(s.calls).toHaveLength(0);
  });

  test("scrolling: nothing is asked while the held rows reach half a margin past the window; then one call around it", async () => {
    const s = setup(monitors(1000));
    s.paged.setQuery(query());
    await s.answer();
    s.paged.setWindow(40, 70); // 60 rows left below: enough
    expect(s.calls).toHaveLength(0);
    s.paged.setWindow(90, 120); // 10 left: ask
    expect([s.calls[0].offset, s.calls[0].limit]).toEqual([0, 220]);
    s.paged.setWindow(600, 630); // a fling while that call is out: one at a time
    expect(s.calls).toHaveLength(1);
    await s.answer(); // then the window where it is now
    expect([s.calls[0].offset, s.calls[0].limit]).toEqual([500, 230]);
    expect(placeAt(s.paged.snapshot(), 600)).toBeUndefined(); // a placeholder until it answers
    await s.answer();
    expect(placeAt(s.paged.snapshot(), 600)).toBeDefined();
    expect(s.paged.snapshot().offset).toBe(500);
    expect(s.store.size).toBe(230); // the rows left behind are forgotten
    // A window taller than one call may ask for is held as far as the call goes.
    s.paged.setWindow(0, 900);
    expect(s.calls[0].limit).toBe(FETCH_MAX);
  });

  test("a new view keeps the rows shown until its answer; an answer of the view before is dropped", async () => {
    const s = setup(monitors(1000));
    s.paged.setQuery(query());
    await s.answer();
    s.paged.setQuery(query({ q: "m0000" }));
    expect(s.paged.snapshot().current).toBe(false);
    expect(s.paged.snapshot().rows).toHaveLength(130);
    s.paged.setQuery(query({ q: "m00001" })); // typed on before the answer: asked at once, not after it
    expect(s.calls.map((c) => c.query.view.q)).toEqual(["m0000", "m00001"]);
    await s.answer(); // "m0000": dropped
    expect(s.paged.snapshot().current).toBe(false);
    expect(s.ids()).toHaveLength(130);
    expect(s.calls.map((c) => c.query.view.q)).toEqual(["m00001"]);
    await s.answer();
    expect(s.paged.snapshot()).toMatchObject({ current: true, total: 1, offset: 0 });
    expect(s.ids()).toEqual([1]);
    expect(s.paged.snapshot().counts.all).toBe(1);
  });

  test("typed A, B, A fast: the older answer of A, success or failure, is not shown after the newer one", async () => {
    const settle = () => new Promise((r) => setTimeout(r, 0));
    for (const older of ["answers", "fails"] as const) {
      const s = setup(monitors(1000));
      s.paged.setQuery(query({ q: "m0001" }));
      s.paged.setQuery(query({ q: "m0002" }));
      s.paged.setQuery(query({ q: "m0001" }));
      expect(s.calls.map((c) => c.query.view.q)).toEqual(["m0001", "m0002", "m0001"]);
      const [first, second, third] = s.calls.splice(0);
      third!.resolve();
      await settle();
      const shown = s.paged.snapshot();
      expect(shown).toMatchObject({ phase: "loaded", current: true, total: 10 });
      if (older === "answers") first!.resolve();
      else first!.reject(new Error("late failure"));
      second!.resolve();
      await settle();
      expect(s.paged.snapshot()).toBe(shown);
      // Not stuck: the next change asks again.
      s.paged.refresh();
      s.advance(REFRESH_MS);
      expect(s.calls).toHaveLength(1);
    }
  });

  test("changes ask for the held rows again, once per burst and at most once a second", async () => {
    const s = setup(monitors(300));
    s.paged.setQuery(query());
    await s.answer();
    s.advance(5000);
    for (let i = 0; i < 50; i++) s.paged.refresh();
    expect(s.calls).toHaveLength(0);
    s.advance(REFRESH_DELAY_MS);
    expect(s.calls).toHaveLength(1);
    await s.answer();
    s.paged.refresh();
    s.advance(REFRESH_DELAY_MS);
    expect(s.calls).toHaveLength(0); // within a second of the last fetch
    s.advance(REFRESH_MS);
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0].offset).toBe(0);
  });

  test("a failed first fetch shows its error and retries only when asked; a failed refresh keeps the rows", async () => {
    const s = setup(monitors(100));
    s.paged.setQuery(query());
    await s.fail("Server unreachable");
    expect(s.paged.snapshot()).toMatchObject({ phase: "error", message: "Server unreachable" });
    expect(s.calls).toHaveLength(0);
    s.paged.reload();
    expect(s.paged.snapshot().phase).toBe("loading");
    await s.answer();
    expect(s.paged.snapshot().phase).toBe("loaded");
    s.advance(5000);
    s.paged.refresh();
    s.advance(REFRESH_DELAY_MS);
    await s.fail("Server unreachable");
    expect(s.paged.snapshot()).toMatchObject({ phase: "loaded", total: 100 });
  });

  test("collapsed groups are part of the view; an empty instance and a view that matches nothing say so", async () => {
    const group = publicMonitor({ id: 1, name: "Shop", type: "group" });
    const members = [2, 3].map((id) => publicMonitor({ id, name: `member ${id}`, parentId: 1 }));
    const s = setup([group, ...members]);
    s.paged.setQuery(query());
    await s.answer();
    expect(s.ids()).toEqual([1, 2, 3]);
    expect(placeAt(s.paged.snapshot(), 0)).toMatchObject({ depth: 0, members: 2, toggles: true });
    s.paged.setQuery({ view: DEFAULT_VIEW, collapsed: [1] });
    await s.answer();
    expect(s.ids()).toEqual([1]);
    s.paged.setQuery(query({ q: "nothing like it" }));
    await s.answer();
    expect(s.paged.snapshot()).toMatchObject({ total: 0, monitors: 3 });

    const empty = setup([]);
    empty.paged.setQuery(query());
    await empty.answer();
    expect(empty.paged.snapshot()).toMatchObject({ phase: "loaded", total: 0, monitors: 0 });
  });
});
