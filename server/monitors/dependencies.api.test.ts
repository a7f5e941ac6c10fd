// Dependencies through the API (both engines): the list round trip, what is refused (unknown ids, itself, cycles,
// too many, not ids) with a 400 and a clear message, a deleted monitor leaving the lists, and the failures of a
// monitor whose parent is down recorded as "unreachable: <parent> is down".
import { afterAll, describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import type { CheckResult, PublicMonitor } from "./public";
import { startTarget } from "./test-target";

const target = startTarget();
afterAll(() => target.stop());

async function signedIn() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const create = (name: string, body: Record<string, unknown> = {}) =>
    t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name, url: target.url("/ok"), retries: 0, ...body } });
  const update = (id: number, body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${id}`, { token, body });
  const get = async (id: number) => (await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token })).body.monitor;
  const check = async (id: number) => (await t.call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${id}/check`, { token })).body;
  return { ...t, token, create, update, get, check };
}

describe("dependsOn", () => {
  test("set on create and update, shown on every reply, replaced as a whole, emptied", async () => {
    const t = await signedIn();
    const router = (await t.create("Router")).body.monitor;
    expect(router.dependsOn).toEqual([]);
    const dns = (await t.create("DNS")).body.monitor;
    const app = await t.create("App", { dependsOn: [router.id, dns.id, router.id] });
    expect(app.status).toBe(201);
    expect(app.body.monitor.dependsOn).toEqual([router.id, dns.id]);
    expect((await t.get(app.body.monitor.id)).dependsOn).toEqual([router.id, dns.id]);
    const list = (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: t.token })).body.monitors;
    expect(list.find((m) => m.id === app.body.monitor.id)?.dependsOn).toEqual([router.id, dns.id]);
    // An edit without dependsOn keeps the list.
    expect((await t.update(app.body.monitor.id, { name: "App 2" })).body.monitor.dependsOn).toEqual([router.id, dns.id]);
    expect((await t.update(app.body.monitor.id, { dependsOn: [dns.id] })).body.monitor.dependsOn).toEqual([dns.id]);
    expect((await t.update(app.body.monitor.id, { dependsOn: [] })).body.monitor.dependsOn).toEqual([]);
  });

  test("refused: unknown ids, itself, cycles, more than 20, not ids; nothing is changed", async () => {
    const t = await signedIn();
    const a = (await t.create("A")).body.monitor;
    const b = (await t.create("B", { dependsOn: [a.id] })).body.monitor;
    const c = (await t.create("C", { dependsOn: [b.id] })).body.monitor;

    const unknown = await t.create("D", { dependsOn: [a.id, 9999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, code: "DEPENDENCY_UNKNOWN", message: "Monitor 9999 does not exist: a monitor can only depend on existing monitors" });
    expect((await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: t.token })).body.monitors.map((m) => m.name)).toEqual(["A", "B", "C"]);

    const self = await t.update(a.id, { dependsOn: [a.id] });
    expect(self.body).toMatchObject({ success: false, code: "DEPENDENCY_SELF", message: "A monitor cannot depend on itself" });
    expect(self.status).toBe(400);

    const cycle = await t.update(a.id, { dependsOn: [c.id], name: "A renamed" });
    expect(cycle.status).toBe(400);
    expect(cycle.body).toMatchObject({ success: false, code: "DEPENDENCY_CYCLE", message: "This would make a cycle of dependencies: A → C → B → A", cycle: "A → C → B → A" });
    expect(await t.get(a.id)).toMatchObject({ name: "A", dependsOn: [] });

    const many = await t.create("Many", { dependsOn: Array.from({ length: 21 }, (_, i) => i + 1) });
    expect(many.status).toBe(400);
    expect(many.body).toMatchObject({ success: false, code: "VALIDATION" });
    expect(many.body.message).toStartWith("dependsOn must list at most 20 monitor ids");
    for (const bad of [[0], [1.5], ["x"], null, { id: 1 }]) {
      const r = await t.create("Bad", { dependsOn: bad });
      expect({ bad, status: r.status, success: r.body.success }).toEqual({ bad, status: 400, success: false });
    }
  });

  test("a deleted monitor leaves the lists of those depending on it", async () => {
    const t = await signedIn();
    const a = (await t.create("A")).body.monitor;
    const b = (await t.create("B")).body.monitor;
    const c = (await t.create("C", { dependsOn: [a.id, b.id] })).body.monitor;
    expect((await t.call("DELETE", `/api/monitors/${a.id}`, { token: t.token })).status).toBe(200);
    expect((await t.get(c.id)).dependsOn).toEqual([b.id]);
  });

  test("while the parent is down, a failing child is down with the unreachable reason; its own error once the parent is up", async () => {
    const t = await signedIn();
    const router = (await t.create("Router", { url: target.url("/status/500") })).body.monitor;
    const app = (await t.create("App", { url: target.url("/status/503"), dependsOn: [router.id] })).body.monitor;
    expect((await t.check(router.id)).monitor.status).toBe("down");
    const held = await t.check(app.id);
    expect(held.result).toMatchObject({ status: "down", error: "unreachable: Router is down" });
    expect(held.monitor).toMatchObject({ status: "down", lastError: "unreachable: Router is down", unreachable: { id: router.id, name: "Router" } });
    await t.update(router.id, { url: target.url("/ok") });
    expect((await t.check(router.id)).monitor.status).toBe("up");
    expect((await t.get(app.id)).unreachable).toBeNull();
    expect((await t.check(app.id)).result).toMatchObject({ status: "down", error: "status 503, expected 2xx" });
  });
});
