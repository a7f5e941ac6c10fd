// Monitor groups through the API: the tree's rules (a parent must be an existing group, no cycles), the group's state
// following its members by its rule (nested groups included), pause cascading, deletion moving members up, and what a
// viewer sees. Members are http monitors with no retries, checked on request against a local target.
import { afterAll, describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import type { PublicMonitor } from "./public";
import { startTarget } from "./test-target";

const target = startTarget();
afterAll(() => target.stop());

const UP = () => target.url("/ok");
const DOWN = () => target.url("/status/503");

async function signedIn() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const create = async (body: Record<string, unknown>) => {
    const res = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { retries: 0, ...body } });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.monitor;
  };
  const group = (name: string, more: Record<string, unknown> = {}) => create({ name, type: "group", ...more });
  const put = (id: number, body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${id}`, { token, body });
  const get = async (id: number) => (await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token })).body.monitor;
  /** Points a member at the up or down target and checks it now. */
  const set = async (id: number, state: "up" | "down") => {
    await put(id, { url: state === "up" ? UP() : DOWN() });
    await t.call("POST", `/api/monitors/${id}/check`, { token });
  };
  return { ...t, token, create, group, put, get, set };
}

describe("the tree", () => {
  test("a group is created with no target, holds monitors and groups, and shows parentId and groupRule", async () => {
    const t = await signedIn();
    const g = await t.group("Shop");
    expect(g).toMatchObject({ type: "group", parentId: null, groupRule: "worst", target: "", status: "pending", url: "" });
    const inner = await t.group("Payments", { parentId: g.id, groupRule: "all" });
    const m = await t.create({ name: "api", url: UP(), parentId: inner.id });
    expect(inner).toMatchObject({ parentId: g.id, groupRule: "all" });
    expect(m.parentId).toBe(inner.id);
    // Moved to the top level and back.
    expect((await t.put(m.id, { parentId: null })).body.monitor.parentId).toBeNull();
    expect((await t.put(m.id, { parentId: g.id })).body.monitor.parentId).toBe(g.id);
  });

  test("refused: a parent that is not a group (400), a missing one (400), a group inside itself or its member (409)", async () => {
    const t = await signedIn();
    const g = await t.group("Outer");
    const inner = await t.group("Inner", { parentId: g.id });
    const m = await t.create({ name: "api", url: UP() });
    const refuse = async (res: Promise<{ status: number; body: { success?: boolean; code?: string; message?: string } }>, status: number, code: string) => {
      const r = await res;
      expect({ status: r.status, success: r.body.success, code: r.body.code }).toEqual({ status, success: false, code });
      expect(typeof r.body.message).toBe("string");
    };
    await refuse(t.call("POST", "/api/monitors", { token: t.token, body: { name: "x", url: UP(), parentId: m.id } }), 400, "PARENT_NOT_GROUP");
    await refuse(t.call("POST", "/api/monitors", { token: t.token, body: { name: "x", url: UP(), parentId: 999_999 } }), 400, "PARENT_NOT_FOUND");
    await refuse(t.call("POST", "/api/monitors", { token: t.token, body: { name: "x", url: UP(), parentId: "one" } }), 400, "VALIDATION");
    await refuse(t.call("POST", "/api/monitors", { token: t.token, body: { name: "x", type: "group", groupRule: "best" } }), 400, "VALIDATION");
    await refuse(t.put(g.id, { parentId: g.id }), 409, "GROUP_CYCLE");
    await refuse(t.put(g.id, { parentId: inner.id }), 409, "GROUP_CYCLE");
    await refuse(t.put(g.id, { type: "http", url: UP() }), 409, "GROUP_HAS_MEMBERS");
    await refuse(t.call("POST", `/api/monitors/${g.id}/check`, { token: t.token }), 409, "GROUP_NOT_CHECKED");
    expect((await t.get(g.id)).parentId).toBeNull();
  });

  test("deleting a group moves its members to the group's own group (or the top level)", async () => {
    const t = await signedIn();
    const outer = await t.group("Outer");
    const inner = await t.group("Inner", { parentId: outer.id });
    const a = await t.create({ name: "a", url: UP(), parentId: inner.id });
    const b = await t.group("b", { parentId: inner.id });
    expect((await t.call("DELETE", `/api/monitors/${inner.id}`, { token: t.token })).status).toBe(200);
    expect((await t.get(a.id)).parentId).toBe(outer.id);
    expect((await t.get(b.id)).parentId).toBe(outer.id);
    expect((await t.call("DELETE", `/api/monitors/${outer.id}`, { token: t.token })).status).toBe(200);
    expect((await t.get(a.id)).parentId).toBeNull();
    expect((await t.get(b.id)).parentId).toBeNull();
  });
});

describe("the group's state", () => {
  test("worst: pending while a member is pending, up when all are up, down when any is down; paused members are left out", async () => {
    const t = await signedIn();
    const g = await t.group("Shop");
    const a = await t.create({ name: "a", url: UP(), parentId: g.id });
    const b = await t.create({ name: "b", url: UP(), parentId: g.id });
    await t.set(a.id, "up");
    expect((await t.get(g.id)).status).toBe("pending"); // b was never checked
    await t.set(b.id, "up");
    expect((await t.get(g.id)).status).toBe("up");
    await t.set(b.id, "down");
    expect(await t.get(g.id)).toMatchObject({ status: "down", lastError: "1 of 2 members down: b" });
    await t.put(b.id, { active: false });
    expect((await t.get(g.id)).status).toBe("up");
    // The group's evaluations are its checks: its history has them.
    const checks = (await t.call<{ checks: { status: string }[] }>("GET", `/api/monitors/${g.id}/checks`, { token: t.token })).body.checks;
    expect(checks.map((c) => c.status)).toEqual(["up", "down", "up"]);
  });

  test("all: down only when every active member is down", async () => {
    const t = await signedIn();
    const g = await t.group("Mirrors", { groupRule: "all" });
    const a = await t.create({ name: "a", url: UP(), parentId: g.id });
    const b = await t.create({ name: "b", url: UP(), parentId: g.id });
    await t.set(a.id, "down");
    await t.set(b.id, "up");
    expect((await t.get(g.id)).status).toBe("up");
    await t.set(b.id, "down");
    expect(await t.get(g.id)).toMatchObject({ status: "down", lastError: "2 of 2 members down: a, b" });
    // Switching the rule re-evaluates at once.
    await t.set(b.id, "up");
    expect((await t.put(g.id, { groupRule: "worst" })).body.monitor.status).toBe("down");
  });

  test("nested groups propagate; an empty group is pending; members moving in and out count at once", async () => {
    const t = await signedIn();
    const outer = await t.group("Outer");
    const inner = await t.group("Inner", { parentId: outer.id });
    expect((await t.get(inner.id)).status).toBe("pending");
    const a = await t.create({ name: "a", url: UP(), parentId: inner.id });
    const b = await t.create({ name: "b", url: UP(), parentId: outer.id });
    await t.set(a.id, "up");
    await t.set(b.id, "up");
    expect((await t.get(outer.id)).status).toBe("up");
    await t.set(a.id, "down");
    expect((await t.get(inner.id)).status).toBe("down");
    expect(await t.get(outer.id)).toMatchObject({ status: "down", lastError: "1 of 2 members down: Inner" });
    await t.put(a.id, { parentId: null });
    expect((await t.get(inner.id)).status).toBe("pending");
    expect((await t.get(outer.id)).status).toBe("up"); // the empty inner group no longer counts as down
  });
});

describe("pause and maintenance", () => {
  test("pausing a group pauses its members, nested ones included; resuming resumes them", async () => {
    const t = await signedIn();
    const outer = await t.group("Outer");
    const inner = await t.group("Inner", { parentId: outer.id });
    const a = await t.create({ name: "a", url: UP(), parentId: inner.id });
    const b = await t.create({ name: "b", url: UP(), parentId: outer.id });
    const other = await t.create({ name: "other", url: UP() });
    expect((await t.put(outer.id, { active: false })).body.monitor.active).toBe(false);
    for (const id of [inner.id, a.id, b.id]) expect((await t.get(id)).active).toBe(false);
    expect((await t.get(other.id)).active).toBe(true);
    await t.put(outer.id, { active: true });
    for (const id of [outer.id, inner.id, a.id, b.id]) expect((await t.get(id)).active).toBe(true);
  });

  test("a maintenance window naming a group covers its members", async () => {
    const t = await signedIn();
    const g = await t.group("Shop");
    const a = await t.create({ name: "a", url: UP(), parentId: g.id });
    const other = await t.create({ name: "other", url: UP() });
    const res = await t.call("POST", "/api/maintenance", { token: t.token, body: { title: "Upgrade", scope: "targets", monitorIds: [g.id], schedule: { kind: "manual" } } });
    expect(res.status).toBe(201);
    expect((await t.get(g.id)).maintenance).toBe(true);
    expect((await t.get(a.id)).maintenance).toBe(true);
    expect((await t.get(other.id)).maintenance).toBe(false);
  });
});

describe("status pages", () => {
  test("a group on a page is one row with the group's state and its members (nested ones too); members alone change it", async () => {
    const t = await signedIn();
    const g = await t.group("Shop");
    const inner = await t.group("Payments", { parentId: g.id });
    const a = await t.create({ name: "api", url: UP(), parentId: g.id });
    const b = await t.create({ name: "card", url: UP(), parentId: inner.id });
    await t.set(a.id, "up");
    await t.set(b.id, "up");
    const saved = await t.call("PUT", "/api/status/config", { token: t.token, body: { title: "Acme", description: "", monitorIds: [g.id], agentIds: [], announcement: null } });
    expect(saved.status).toBe(200);
    const page = async () => (await t.call<{ page: { monitors: { id: number; name: string; status: string; members?: unknown[] }[] } }>("GET", "/api/status")).body.page.monitors;
    expect((await page()).map((m) => ({ name: m.name, status: m.status }))).toEqual([{ name: "Shop", status: "up" }]);
    expect((await page())[0]!.members).toEqual([
      { id: inner.id, name: "Payments", status: "up", uptimeDay: 100, members: [{ id: b.id, name: "card", status: "up", uptimeDay: 100 }] },
      { id: a.id, name: "api", status: "up", uptimeDay: 100 },
    ]);
    // A member's change shows at once (the cached view is dropped), and nothing of the member's target is shown.
    await t.set(b.id, "down");
    const shown = await page();
    expect(shown[0]!.status).toBe("down");
    expect(JSON.stringify(shown)).not.toContain("127.0.0.1");
  });
});

describe("who sees what", () => {
  test("a viewer sees groups and members as before: members' credentials hidden", async () => {
    const t = await signedIn();
    const vera = await t.signUp("vera");
    expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: t.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
    const viewer = (await t.login("vera")).token;
    const g = await t.group("Shop");
    await t.create({ name: "a", url: target.url("/ok").replace("http://", "http://user:secret@"), headers: [{ name: "X-Key", value: "k" }], parentId: g.id });
    const seen = (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: viewer })).body.monitors;
    expect(seen.find((m) => m.id === g.id)).toMatchObject({ type: "group", parentId: null });
    const member = seen.find((m) => m.parentId === g.id)!;
    expect(JSON.stringify(member)).not.toContain("secret");
    expect(member.headers).toEqual([{ name: "X-Key", value: "••••" }]);
    // A group's page reads its members alone, through the same view.
    const members = (await t.call<{ monitors: PublicMonitor[] }>("GET", `/api/monitors/${g.id}/members`, { token: viewer })).body.monitors;
    expect(members.map((m) => m.id)).toEqual([member.id]);
    expect(JSON.stringify(members)).not.toContain("secret");
    expect(members[0]!.headers).toEqual([{ name: "X-Key", value: "••••" }]);
    // A viewer edits nothing: no group either.
    expect((await t.call("POST", "/api/monitors", { token: viewer, body: { name: "g2", type: "group" } })).status).toBe(403);
  });

  test("a group's members: its direct members by name with their state; none for a monitor; 404, 400 and 401 refused", async () => {
    const t = await signedIn();
    const g = await t.group("Shop");
    const inner = await t.group("Payments", { parentId: g.id });
    const b = await t.create({ name: "card", url: UP(), parentId: inner.id });
    const a = await t.create({ name: "api", url: DOWN(), parentId: g.id });
    await t.create({ name: "elsewhere", url: UP() });
    await t.set(a.id, "down");
    const members = async (id: number | string) => t.call<{ success: boolean; monitors: PublicMonitor[]; message?: string }>("GET", `/api/monitors/${id}/members`, { token: t.token });
    const shop = await members(g.id);
    expect(shop.status).toBe(200);
    expect(shop.body.monitors.map((m) => ({ name: m.name, status: m.status, parentId: m.parentId }))).toEqual([
      { name: "api", status: "down", parentId: g.id },
      { name: "Payments", status: "pending", parentId: g.id },
    ]);
    expect((await members(inner.id)).body.monitors.map((m) => m.id)).toEqual([b.id]);
    expect((await members(b.id)).body.monitors).toEqual([]);
    // Moved out, it is no longer listed.
    await t.put(a.id, { parentId: null });
    expect((await members(g.id)).body.monitors.map((m) => m.name)).toEqual(["Payments"]);
    const missing = await members(999_999);
    expect({ status: missing.status, success: missing.body.success }).toEqual({ status: 404, success: false });
    expect((await members("one")).status).toBe(400);
    expect((await t.call("GET", `/api/monitors/${g.id}/members`)).status).toBe(401);
  });
});
