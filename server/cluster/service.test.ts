import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { openDatabase } from "../db/open";
import { testEngine, testSchema } from "../db/test-db";
import type { MonitorCheckEvent, MonitorStatusEvent } from "../monitors/public";
import type { Checker } from "../monitors/types/http/http";
import { testApp } from "../test-support";
import { testHost, testSample } from "../agents/test-fixtures";
import { BUCKETS, bucketOf } from "./leases";

setDefaultTimeout(30_000);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
};

const monitor = (name: string) => ({ name, type: "http" as const, url: `http://127.0.0.1:9/${name}`, interval: 1, active: true });

describe("standalone (one node)", () => {
  test("/healthz says standalone with every bucket; the nodes view lists this node alone", async () => {
    const t = await testApp();
    cleanups.push(() => t.db.close());
    const health = await t.call<{ role: string; leases: number; node: string }>("GET", "/healthz");
    expect(health.body.role).toBe("standalone");
    expect(health.body.leases).toBe(BUCKETS);
    const { token } = await t.signUp("alice");
    const nodes = await t.call<{ clustered: boolean; nodes: { name: string; live: boolean; self: boolean; leases: number }[] }>("GET", "/api/cluster/nodes", { token });
    expect(nodes.status).toBe(200);
    expect(nodes.body.clustered).toBe(false);
    expect(nodes.body.nodes).toEqual([expect.objectContaining({ name: "local", live: true, self: true, leases: BUCKETS })]);
    expect((await t.call("GET", "/api/cluster/nodes")).status).toBe(401);
  });
});

describe.skipIf(testEngine !== "postgres")("two nodes on one PostgreSQL database", () => {
  /** A node: its own connections to the shared schema, services with short leases, a checker that answers "up". */
  async function node(url: string, name: string, checks: string[], beforeJoin?: () => Promise<unknown>) {
    const db: Db = await openDatabase(url);
    const checker: Checker = async (target) => {
      checks.push(`${name} ${target.url}`);
      return { time: Date.now(), up: !target.url.includes("down"), responseTime: 5, httpStatus: 200, error: target.url.includes("down") ? "HTTP 500" : null };
    };
    const services: Services = await createServices(db, {
      node: name,
      monitors: { checker, tls: false },
      cluster: { leaseMs: 3000, tickMs: 250, catchUpDelayMs: 50 },
    });
    await beforeJoin?.();
    await services.cluster.start(`http://127.0.0.1/${name}`);
    services.monitors.start({ maintenanceDelayMs: 60_000 });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      // A node whose database was closed by the test stops with errors; they are not what the test checks.
      await services.cluster.stop().catch(() => {});
      await services.monitors.stop().catch(() => {});
      await db.close().catch(() => {});
    };
    cleanups.push(stop);
    return { db, services, stop };
  }

  async function pair() {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const checks: string[] = [];
    const a = await node(schema.url, "a", checks);
    const b = await node(schema.url, "b", checks);
    await until("an even split", () => a.services.cluster.leaseCount() === 128 && b.services.cluster.leaseCount() === 128);
    return { a, b, checks, url: schema.url };
  }

  test("monitors are split: each is scheduled on exactly one node, the one leasing its bucket; roles and nodes view", async () => {
    const { a, b } = await pair();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await a.services.monitors.create(monitor(`m${i}`))).id);
    await until("b to learn every monitor", () => ids.every((id) => b.services.monitors.get(id) !== undefined));
    await until("each monitor on one node", () => ids.every((id) => a.services.monitors.scheduler.has(id) !== b.services.monitors.scheduler.has(id)));
    for (const id of ids) {
      const owner = a.services.cluster.leases!.owns(id) ? a : b;
      expect(owner.services.monitors.scheduler.has(id)).toBe(true);
    }
    expect([a.services.cluster.role(), b.services.cluster.role()].sort()).toEqual(["leader", "member"]);
    const nodes = await a.services.cluster.nodes();
    expect(nodes.map((n) => [n.name, n.live, n.leases, n.self])).toEqual([["a", true, 128, true], ["b", true, 128, false]]);
  });

  test("a check on one node reaches the other's memory and browsers, marked remote (so only its maker notifies)", async () => {
    const { a, b } = await pair();
    const m = await a.services.monitors.create({ ...monitor("will-be-down"), url: "http://127.0.0.1:9/down", active: false, retries: 0 });
    await until("b to learn it", () => b.services.monitors.get(m.id) !== undefined);
    const seen: (MonitorCheckEvent | MonitorStatusEvent)[] = [];
    b.services.events.on("monitor.check", (e) => seen.push(e));
    b.services.events.on("monitor.status", (e) => seen.push(e));
    await a.services.monitors.checkNow(m.id);
    await until("b to see the check", () => seen.length >= 2);
    expect(seen.every((e) => e.remote === true)).toBe(true);
    const onB = b.services.monitors.get(m.id)!;
    expect(onB.status).toBe("down");
    expect(onB.lastError).toBe("HTTP 500");
    expect(onB.consecutiveFailures).toBe(1);
    expect((await b.services.monitors.recentChecks(m.id))!.map((c) => c.status)).toEqual(["down"]);
  });

  test("a node alone says nothing of its checks; a node joining re-reads what it was not told before the other saw it", async () => {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const checks: string[] = [];
    const a = await node(schema.url, "a", checks);
    const m = await a.services.monitors.create({ ...monitor("flaky"), url: "http://127.0.0.1:9/down", active: false, retries: 0 });
    await a.services.cluster.bridge!.flush();
    const sent = () => a.services.cluster.bridge!.stats().sent;
    const before = sent();
    await a.services.monitors.checkNow(m.id);
    await a.services.cluster.bridge!.flush();
    expect(sent()).toBe(before);

    // b has read the monitors when a checks again, before either knows of the other: a tells nobody.
    let second = 0;
    const b = await node(schema.url, "b", checks, async () => {
      second = (await a.services.monitors.checkNow(m.id))!.result.time;
    });
    expect(b.services.monitors.get(m.id)!.lastCheckedAt ?? 0).toBeLessThan(second); // null: read before a's first check was written
    expect(sent()).toBe(before);
    await until("an even split", () => a.services.cluster.leaseCount() === 128 && b.services.cluster.leaseCount() === 128);
    // Once a has seen b (and written its check), b re-reads: the second check is there.
    await until("b to re-read", () => b.services.monitors.get(m.id)?.lastCheckedAt === second, 10_000);
    expect(b.services.monitors.get(m.id)!.status).toBe("down");
    // From now on a tells b of each check.
    expect(a.services.cluster.leases!.others()).toBe(1);
    const third = (await a.services.monitors.checkNow(m.id))!.result.time;
    await until("b to hear the third", () => b.services.monitors.get(m.id)?.lastCheckedAt === third);
    expect(sent()).toBeGreaterThan(before);
  });

  test("edits and deletions on one node re-plan the monitor on its owner", async () => {
    const { a, b } = await pair();
    // Ids of both owners: each edit comes from the node that does not own it.
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => a.services.monitors.create({ ...monitor(`e${i}`), active: false })));
    await until("b to learn them", () => made.every((m) => b.services.monitors.get(m.id)));
    for (const m of made) {
      const owner = a.services.cluster.leases!.owns(m.id) ? a : b;
      const other = owner === a ? b : a;
      await other.services.monitors.update(m.id, { active: true });
      await until(`monitor ${m.id} scheduled on its owner`, () => owner.services.monitors.scheduler.has(m.id));
      expect(other.services.monitors.scheduler.has(m.id)).toBe(false);
      await other.services.monitors.remove(m.id);
      await until(`monitor ${m.id} gone from its owner`, () => owner.services.monitors.get(m.id) === undefined && !owner.services.monitors.scheduler.has(m.id));
    }
  });

  test("agents: registered on one node, reporting to the other; presence is decided (and notified) by the owner alone", async () => {
    const { a, b } = await pair();
    const userId = (await a.services.users.create({ username: "admin", email: null, passwordHash: "x", role: "admin" })).id;
    const reg = await a.services.agents.register((await a.services.agents.createToken(userId)).token, "web", testHost);
    if (typeof reg === "string") throw new Error(reg);
    const id = reg.agent.id;
    await until("b to know the agent and its credential", () => b.services.agents.authenticate(reg.credential) === id);
    const statuses: { node: string; remote?: boolean; to: string }[] = [];
    a.services.events.on("agent.status", (e) => statuses.push({ node: "a", remote: e.remote, to: e.to }));
    b.services.events.on("agent.status", (e) => statuses.push({ node: "b", remote: e.remote, to: e.to }));
    // The report lands on the node that does not own the agent.
    const owner = a.services.cluster.leases!.owns(id) ? "a" : "b";
    const receiver = owner === "a" ? b : a;
    const other = owner === "a" ? a : b;
    receiver.services.agents.ingest(id, { host: testHost, interval: 10, samples: [testSample(Date.now(), 42)] });
    await until("the other node to follow the report", () => other.services.agents.get(id)?.latest?.cpu.usage === 42);
    expect(other.services.agents.get(id)!.status).toBe("online");
    await until("both nodes to see it online", () => statuses.length === 2);
    // Exactly one of the two events is the owner's own (notifications act on that one).
    expect(statuses.filter((s) => !s.remote)).toEqual([{ node: owner, remote: undefined, to: "online" }]);

    // Renamed on one node, deleted on the other.
    await other.services.agents.rename(id, "web-renamed");
    await until("the rename to reach the receiver", () => receiver.services.agents.get(id)?.name === "web-renamed");
    await receiver.services.agents.remove(id);
    await until("the deletion to reach the other node", () => other.services.agents.get(id) === undefined && other.services.agents.authenticate(reg.credential) === undefined);
  });

  test("a node that leaves hands its monitors over at once; one that stops renewing loses them within a lease", async () => {
    const { a, b, url, checks } = await pair();
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await a.services.monitors.create(monitor(`h${i}`))).id);
    await until("b to learn them", () => ids.every((id) => b.services.monitors.get(id)));
    await b.stop();
    await until("a to hold every bucket", () => a.services.cluster.leaseCount() === BUCKETS);
    await until("a to schedule every monitor", () => ids.every((id) => a.services.monitors.scheduler.has(id)));

    // A third node joins, then loses its database (as if its machine died): a takes its share back once its leases
    // expire, and c itself stops checking before that (it cannot renew).
    const c = await node(url, "c", checks);
    await until("c to take half", () => c.services.cluster.leaseCount() === 128, 10_000);
    await c.db.close();
    await until("a to hold every bucket again", () => a.services.cluster.leaseCount() === BUCKETS, 3000 + 2000);
    await until("c to stop checking", () => c.services.cluster.leaseCount() === 0, 3000);
    expect(ids.every((id) => a.services.monitors.scheduler.has(id))).toBe(true);
  });
});

// bucketOf is what decides the owner; keep the test's idea of it honest.
test("buckets spread consecutive ids", () => {
  expect(new Set([1, 2, 3, 4].map(bucketOf)).size).toBe(4);
});
