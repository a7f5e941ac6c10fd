// Dependencies and notifications end to end (both engines): real checks against a local target, the rules, the
// outbox and a local webhook. While a parent is down its children's failures alert nobody; when it recovers, a child
// still down alerts then (once), one that recovered meanwhile sends nothing — also after a restart.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServices } from "../app";
import { startFake, type Fake } from "./providers/test-fake";
import { notificationHarness } from "./test-harness";

let hook: Fake;
let target: Server;
/** The status each path answers (200 unless set). */
const statuses = new Map<string, number>();
let targetUrl = "";
const harness = notificationHarness(() => `${hook.url}/hook`);

beforeEach(async () => {
  hook = startFake(() => new Response("ok"));
  statuses.clear();
  target = createServer((req, res) => void res.writeHead(statuses.get(req.url ?? "/") ?? 200).end("x"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterEach(async () => {
  hook.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

/** Every event sent, as "kind name" (a burst may leave as one grouped message). */
const titles = () => hook.received.flatMap((r) => (r.json as { events: { kind: string; target: { name: string } }[] }).events.map((e) => `${e.kind} ${e.target.name}`));

async function setup() {
  const t = await harness();
  const { token } = t;
  const create = async (name: string, dependsOn: number[] = []) =>
    (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name, url: `${targetUrl}/${name}`, retries: 0, dependsOn } })).body.monitor.id;
  const router = await create("router");
  const children = [await create("app", [router]), await create("db", [router]), await create("cache", [router])];
  /** Sets what a monitor's path answers and checks it now. */
  const check = async (id: number, name: string, status: number) => {
    statuses.set(`/${name}`, status);
    await t.call("POST", `/api/monitors/${id}/check`, { token });
    await t.settle(61_000); // past the outbox's storm pacing: what is due leaves now
  };
  return { ...t, router, children, check };
}

describe("notifications and dependencies", () => {
  test("a parent down and three children failing: one alert; the parent recovers with every child still down: each alerts once", async () => {
    const t = await setup();
    const [app, db, cache] = t.children as [number, number, number];
    await t.check(t.router, "router", 500);
    await t.check(app, "app", 500);
    await t.check(db, "db", 500);
    await t.check(cache, "cache", 500);
    await t.check(app, "app", 500);
    expect(titles()).toEqual(["down router"]);
    const checks = (await t.call<{ checks: { status: string; error: string }[] }>("GET", `/api/monitors/${app}/checks`, { token: t.token })).body.checks;
    expect(checks.map((c) => [c.status, c.error])).toEqual([["down", "unreachable: router is down"], ["down", "unreachable: router is down"]]);

    await t.check(t.router, "router", 200);
    expect(titles().slice(1).sort()).toEqual(["down app", "down cache", "down db", "recovery router"]);
    // Still down at their next checks (now with their own reason): nothing more; then they recover.
    await t.check(app, "app", 500);
    expect(titles()).toHaveLength(5);
    await t.check(app, "app", 200);
    expect(titles().at(-1)).toBe("recovery app");
  });

  test("a child that recovered while the parent was down sends nothing, then or when the parent recovers", async () => {
    const t = await setup();
    const [app, db] = t.children as [number, number];
    await t.check(app, "app", 200);
    await t.check(db, "db", 200);
    await t.check(t.router, "router", 500);
    await t.check(app, "app", 500);
    await t.check(db, "db", 500);
    await t.check(app, "app", 200);
    await t.check(t.router, "router", 200);
    expect(titles()).toEqual(["down router", "recovery router", "down db"]);
  });

  test("a child that had alerted before its parent went down recovers as usual, and is not alerted again", async () => {
    const t = await setup();
    const [app] = t.children as [number];
    await t.check(app, "app", 500);
    await t.check(t.router, "router", 500);
    await t.check(app, "app", 500);
    await t.check(t.router, "router", 200);
    expect(titles()).toEqual(["down app", "down router", "recovery router"]);
    await t.check(app, "app", 200);
    expect(titles().at(-1)).toBe("recovery app");
  });

  test("a held child is alerted when its parent is paused or when it stops depending on it, not on other edits", async () => {
    const t = await setup();
    const [app, db] = t.children as [number, number];
    await t.check(t.router, "router", 500);
    await t.check(app, "app", 500);
    await t.check(db, "db", 500);
    await t.call("PUT", `/api/monitors/${app}`, { token: t.token, body: { name: "app" } });
    await t.settle(61_000);
    expect(titles()).toEqual(["down router"]);
    await t.call("PUT", `/api/monitors/${app}`, { token: t.token, body: { dependsOn: [] } });
    await t.settle(61_000);
    expect(titles()).toEqual(["down router", "down app"]);
    await t.call("PUT", `/api/monitors/${t.router}`, { token: t.token, body: { active: false } });
    await t.settle(61_000);
    expect(titles()).toEqual(["down router", "down app", "down db"]);
  });

  test("across a restart: the held alert is sent when the parent recovers after it, once", async () => {
    const t = await setup();
    const [app] = t.children as [number];
    await t.check(t.router, "router", 500);
    await t.check(app, "app", 500);
    expect(titles()).toEqual(["down router"]);
    await t.services.notifications.stop();
    await t.services.monitors.stop();

    const services = await createServices(t.db, { now: t.now, notifications: { send: { timeoutMs: 1_000 } } });
    try {
      expect(services.monitors.get(app)).toMatchObject({ status: "down", unreachable: { id: t.router, name: "router" } });
      statuses.set("/router", 200);
      await services.monitors.checkNow(t.router);
      await services.notifications.idle();
      t.advanceClock(61_000);
      await services.notifications.outbox.tick();
      expect(titles()).toEqual(["down router", "recovery router", "down app"]);
      statuses.set("/app", 500);
      await services.monitors.checkNow(app);
      await services.notifications.idle();
      t.advanceClock(61_000);
      await services.notifications.outbox.tick();
      expect(titles()).toHaveLength(3);
    } finally {
      await services.notifications.stop();
      await services.monitors.stop();
    }
  });
});
