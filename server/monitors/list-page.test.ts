import { describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import { createListPages, ORDER_TTL_MS } from "./list-page";
import { DEFAULT_VIEW, filterAndSort, isFiltered, statusCounts, tagsInUse, treeRows, type ListView } from "./list-view";
import type { PublicMonitor } from "./public";

// GET /api/monitors/page against the same list computed in memory from GET /api/monitors (list-view.ts, as the screen
// computed it before the server paged), on both engines.

async function instance() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const victor = await t.signUp("victor");
  expect((await t.call("PUT", `/api/users/${victor.user.id}`, { token: admin.token, body: { username: "victor", role: "viewer" } })).status).toBe(200);
  const viewer = await t.login("victor"); // a session with the new role
  const create = async (body: Record<string, unknown>) => {
    const r = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token: admin.token, body });
    expect(r.status).toBe(201);
    return r.body.monitor;
  };
  const manual = (id: number, status: "up" | "down") => t.call("POST", `/api/monitors/${id}/manual`, { token: admin.token, body: { status } });
  return { ...t, admin, viewer, create, manual };
}

/** Every row of a view, fetched `limit` at a time. */
async function allPages(t: Awaited<ReturnType<typeof instance>>, token: string, search: string, limit: number) {
  const rows: { id: number; depth: number; members: number; toggles: boolean }[] = [];
  let first: any;
  for (let offset = 0; ; offset += limit) {
    const r = await t.call<any>("GET", `/api/monitors/page?${search}${search ? "&" : ""}offset=${offset}&limit=${limit}`, { token });
    expect(r.status).toBe(200);
    first ??= r.body;
    expect(r.body.offset).toBe(offset);
    rows.push(...r.body.rows.map((row: any) => ({ id: row.monitor.id, depth: row.depth, members: row.members, toggles: row.toggles })));
    if (r.body.rows.length < limit) break;
  }
  expect(rows.length).toBe(first.total);
  return { rows, counts: first.counts, tags: first.tags, monitors: first.monitors };
}

describe("GET /api/monitors/page", () => {
  test("pages, filters, sorts, trees and counts exactly as the list computed in memory", async () => {
    const t = await instance();
    const web = await t.create({ name: "Web group", type: "group" });
    const api = await t.create({ name: "API group", type: "group", parentId: web.id });
    for (let i = 0; i < 36; i++) {
      const m = await t.create({
        name: `${["shop", "Blog", "api", "Mail"][i % 4]} ${i}`,
        type: "manual",
        tags: [i % 3 === 0 ? "env:prod" : "env:test", ...(i % 5 === 0 ? ["eu"] : [])],
        parentId: i % 6 === 0 ? web.id : i % 7 === 0 ? api.id : null,
        active: i % 11 !== 4,
      });
      if (i % 4 === 1) await t.manual(m.id, "down");
      else if (i % 4 === 2) await t.manual(m.id, "up");
    }
    const whole = (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: t.admin.token })).body.monitors;
    expect(whole).toHaveLength(38);

    const views: [string, ListView, number[]][] = [
      ["", DEFAULT_VIEW, []],
      ["", DEFAULT_VIEW, [api.id]],
      ["", DEFAULT_VIEW, [web.id]],
      ["sort=name", { ...DEFAULT_VIEW, sort: "name", dir: "asc" }, []],
      ["sort=name&dir=desc", { ...DEFAULT_VIEW, sort: "name", dir: "desc" }, []],
      ["sort=status", { ...DEFAULT_VIEW, sort: "status", dir: "asc" }, []],
      ["sort=uptime", { ...DEFAULT_VIEW, sort: "uptime", dir: "asc" }, []],
      ["sort=responseTime&dir=asc", { ...DEFAULT_VIEW, sort: "responseTime", dir: "asc" }, []],
      ["q=SHOP", { ...DEFAULT_VIEW, q: "SHOP" }, []],
      ["q=a%201", { ...DEFAULT_VIEW, q: "a 1" }, []],
      ["status=down", { ...DEFAULT_VIEW, status: "down" }, []],
      ["status=paused", { ...DEFAULT_VIEW, status: "paused" }, []],
      ["tag=env", { ...DEFAULT_VIEW, tags: ["env"] }, []],
      ["tag=ENV:prod&tag=eu", { ...DEFAULT_VIEW, tags: ["ENV:prod", "eu"] }, []],
      ["tag=env:test&status=up&sort=name&dir=desc", { ...DEFAULT_VIEW, tags: ["env:test"], status: "up", sort: "name", dir: "desc" }, []],
    ];
    for (const [search, view, collapsed] of views) {
      const query = [search, collapsed.length ? `collapsed=${collapsed.join(",")}` : ""].filter(Boolean).join("&");
      const paged = await allPages(t, t.admin.token, query, 7);
      const expected = treeRows(filterAndSort(whole, view), isFiltered(view), new Set(collapsed)).map(({ monitor, depth, members, toggles }) => ({ id: monitor.id, depth, members, toggles }));
      expect({ query, rows: paged.rows }).toEqual({ query, rows: expected });
      expect(paged.counts).toEqual(statusCounts(whole, view));
      expect(paged.tags).toEqual(tagsInUse(whole));
      expect(paged.monitors).toBe(38);
    }
    // Past the end: no rows, the same total.
    const beyond = await t.call<any>("GET", "/api/monitors/page?offset=1000", { token: t.admin.token });
    expect(beyond.body).toMatchObject({ success: true, total: 38, offset: 1000, rows: [] });
  });

  test("a new monitor and a status change show at once; a row is the monitor as GET /api/monitors/:id gives it", async () => {
    const t = await instance();
    const a = await t.create({ name: "alpha", type: "manual" });
    await t.create({ name: "beta", type: "manual" });
    const first = await t.call<any>("GET", "/api/monitors/page", { token: t.admin.token });
    expect(first.body.rows.map((r: any) => r.monitor.name)).toEqual(["alpha", "beta"]);
    await t.create({ name: "aardvark", type: "manual" });
    await t.manual(a.id, "up");
    const second = await t.call<any>("GET", "/api/monitors/page", { token: t.admin.token });
    expect(second.body.rows.map((r: any) => r.monitor.name)).toEqual(["aardvark", "beta", "alpha"]); // pending before up
    const one = await t.call<any>("GET", `/api/monitors/${a.id}`, { token: t.admin.token });
    expect(second.body.rows[2].monitor).toEqual(one.body.monitor);
    expect(second.body.counts).toMatchObject({ all: 3, pending: 2, up: 1 });
  });

  test("a viewer's rows are the viewer's view, and a search does not find what the viewer cannot see", async () => {
    const t = await instance();
    await t.create({ name: "Intranet", type: "http", url: "https://ops:hunter2@intranet.example/health", headers: [{ name: "X-Key", value: "sekret" }] });
    const seen = await t.call<any>("GET", "/api/monitors/page", { token: t.viewer.token });
    expect(seen.body.rows[0].monitor.url).toBe("https://••••@intranet.example/health");
    expect(JSON.stringify(seen.body)).not.toContain("hunter2");
    expect(JSON.stringify(seen.body)).not.toContain("sekret");
    const search = await t.call<any>("GET", "/api/monitors/page?q=hunter2", { token: t.viewer.token });
    expect(search.body).toMatchObject({ total: 0, rows: [] });
    const asAdmin = await t.call<any>("GET", "/api/monitors/page?q=hunter2", { token: t.admin.token });
    expect(asAdmin.body.total).toBe(1);
  });

  test("bad input is refused with a clear 400; no session is 401", async () => {
    const t = await instance();
    for (const query of ["limit=0", "limit=501", "offset=-1", "limit=1.5", "status=broken", "sort=size", "dir=up", "collapsed=a,b", "collapsed=1,,2", `q=${"x".repeat(201)}`]) {
      const r = await t.call<any>("GET", `/api/monitors/page?${query}`, { token: t.admin.token });
      expect({ query, status: r.status, success: r.body.success }).toEqual({ query, status: 400, success: false });
      expect(r.body.message).toBeTruthy();
    }
    expect((await t.call("GET", "/api/monitors/page")).status).toBe(401);
  });
});

describe("GET /api/monitors/names", () => {
  test("every monitor's id, name, type, target, group, tags and active flag, nothing more; a viewer's without a URL password", async () => {
    const t = await instance();
    const group = await t.create({ name: "Shop", type: "group" });
    const web = await t.create({ name: "Web", url: "https://bob:secret@example.com/health", headers: [{ name: "Authorization", value: "Bearer x" }], parentId: group.id, tags: ["env:prod"] });
    const push = await t.create({ name: "Backup", type: "push", active: false });
    const names = async (token: string) => {
      const r = await t.call<{ monitors: Record<string, unknown>[] }>("GET", "/api/monitors/names", { token });
      expect(r.status).toBe(200);
      return r.body.monitors.sort((a, b) => Number(a.id) - Number(b.id));
    };
    expect(await names(t.admin.token)).toEqual([
      { id: group.id, name: "Shop", type: "group", target: group.target, parentId: null, tags: [], active: true },
      { id: web.id, name: "Web", type: "http", target: "https://bob:secret@example.com/health", parentId: group.id, tags: ["env:prod"], active: true },
      { id: push.id, name: "Backup", type: "push", target: push.target, parentId: null, tags: [], active: false },
    ]);
    const seen = await names(t.viewer.token);
    expect(seen[1].target).toBe("https://••••@example.com/health");
    expect(JSON.stringify(seen)).not.toContain("secret");
    expect(JSON.stringify(seen)).not.toContain(String(push.pushToken));
    expect((await t.call("GET", "/api/monitors/names")).status).toBe(401);
  });
});

describe("orderings kept between pages", () => {
  const monitor = (id: number, name: string, responseTime: number): PublicMonitor =>
    ({ id, name, target: "", tags: [], active: true, maintenance: false, status: "up", responseTime, uptime24h: 100, parentId: null }) as unknown as PublicMonitor;

  test("checks alone reorder a sorted list once the ordering is older than ORDER_TTL_MS; a version bump at once", () => {
    let clock = 0;
    let version = 0;
    const list = [monitor(1, "a", 10), monitor(2, "b", 20)];
    const pages = createListPages({ list: () => list, get: (id) => list.find((m) => m.id === id), version: () => version }, () => clock);
    const request = { view: { ...DEFAULT_VIEW, sort: "responseTime" as const, dir: "desc" as const }, collapsed: [], offset: 0, limit: 10 };
    const ids = () => pages.page("admin", request).rows.map((r) => r.monitor.id);
    expect(ids()).toEqual([2, 1]);
    list[0] = monitor(1, "a", 30); // a check made "a" the slowest
    clock = ORDER_TTL_MS - 1;
    expect(ids()).toEqual([2, 1]);
    expect(pages.page("admin", request).rows[1].monitor.responseTime).toBe(30); // the row itself is fresh
    clock = ORDER_TTL_MS;
    expect(ids()).toEqual([1, 2]);
    list.push(monitor(3, "c", 99));
    version++;
    expect(ids()).toEqual([3, 1, 2]);
  });

  test("every view starts from one kept read of the monitors until the version moves; figures re-read after ORDER_TTL_MS", () => {
    let clock = 0;
    let version = 0;
    let reads = 0;
    const list = [monitor(1, "b", 10), monitor(2, "a", 20), monitor(3, "ab", 5)];
    const pages = createListPages({ list: () => (reads++, list), get: (id) => list.find((m) => m.id === id), version: () => version }, () => clock);
    const ids = (view: Partial<ListView>) => pages.page("admin", { view: { ...DEFAULT_VIEW, ...view }, collapsed: [], offset: 0, limit: 10 }).rows.map((r) => r.monitor.id);
    expect(ids({})).toEqual([2, 3, 1]);
    expect(ids({ q: "a" })).toEqual([2, 3]);
    expect(ids({ sort: "name", dir: "desc" })).toEqual([1, 3, 2]);
    expect(reads).toBe(1);
    clock = ORDER_TTL_MS * 10; // names and statuses did not move: no new read, however old
    expect(ids({ q: "b" })).toEqual([3, 1]);
    expect(reads).toBe(1);
    expect(ids({ sort: "responseTime", dir: "desc" })).toEqual([2, 1, 3]); // figures: read again when old
    expect(reads).toBe(2);
    list[0] = monitor(1, "c", 10);
    version++;
    expect(ids({ q: "c" })).toEqual([1]);
    expect(reads).toBe(3);
  });
});
