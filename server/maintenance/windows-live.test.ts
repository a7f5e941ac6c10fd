// Issue 38: maintenance windows on the real clock, in the shipped server (dist/vigil when built, else the source) as
// a real process. A window made to start some seconds later begins by itself (the monitor shows maintenance, its
// failure sends nothing) and ends by itself (maintenance false, a fresh down) — also when the server was stopped
// while it ended, and with two nodes on one PostgreSQL database (one fresh down, not two, also when the node checking
// the monitor dies in the window). About a minute on SQLite, two more on PostgreSQL.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { bucketOf } from "../cluster/leases";
import { openDatabase } from "../db/open";
import { TEST_DATABASE_URL, testSchema } from "../db/test-db";
import { startShippedServer, type ShippedServer, type ShippedOptions } from "../shipped-server";

const PASSWORD = "correct horse";
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(what: string, ok: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(200);
  }
}
const sleepUntil = (at: number) => Bun.sleep(Math.max(0, at - Date.now()));

/** Targets answering each path with the status set for it (200 until told otherwise). */
function targets() {
  const status = new Map<string, number>();
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => new Response("x", { status: status.get(new URL(req.url).pathname) ?? 200 }) });
  cleanups.push(() => server.stop(true));
  return { url: (path: string) => `http://127.0.0.1:${server.port}${path}`, set: (path: string, code: number) => void status.set(path, code) };
}

/** The webhook's receiver: every event of every message. */
function receiver() {
  const events: { kind: string; target: { id: number } }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      events.push(...((await req.json()) as { events: typeof events }).events);
      return new Response("ok");
    },
  });
  cleanups.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/hook`, of: (kind: string, id: number) => events.filter((e) => e.kind === kind && e.target.id === id).length };
}

/** A server process with its API, kept in `cleanups` until stopped. */
async function serve(options: ShippedOptions) {
  const server: ShippedServer = await startShippedServer(options);
  let stopped = false;
  cleanups.push(() => !stopped && server.stop());
  let token = "";
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.base + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return {
    server,
    call,
    useToken: (t: string) => void (token = t),
    stop: async () => {
      stopped = true;
      await server.stop();
    },
    kill: async () => {
      stopped = true;
      await server.kill();
    },
    monitor: async (id: number) => (await call("GET", `/api/monitors/${id}`)).body.monitor as { status: string; maintenance: boolean },
  };
}
type Node = Awaited<ReturnType<typeof serve>>;

/** The first user (admin), a webhook channel for every monitor's down and recovery. */
async function setUp(node: Node, hookUrl: string): Promise<string> {
  const token = (await node.call("POST", "/api/auth/register", { username: "admin", password: PASSWORD, confirmPassword: PASSWORD })).body.token as string;
  node.useToken(token);
  const channel = await node.call("POST", "/api/notifications/channels", { name: "Hook", type: "webhook", config: { url: hookUrl } });
  expect(channel.status).toBe(201);
  const settings = await node.call("PUT", "/api/notifications/settings", {
    monitor: { enabled: true, channelIds: [channel.body.channel.id], events: { down: true, recovery: true }, reminderMinutes: 0 },
    agent: { enabled: false, channelIds: [], events: { offline: false, online: false, cpu: false, memory: false, disk: false }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
    language: "en-US",
    timeZone: "UTC",
  });
  expect(settings.status).toBe(200);
  return token;
}

const createMonitor = async (node: Node, name: string, url: string) => {
  const res = await node.call("POST", "/api/monitors", { name, url, retries: 0, interval: 1 });
  expect(res.status).toBe(201);
  return res.body.monitor.id as number;
};
const createWindow = async (node: Node, monitorIds: number[], startsAt: number, endsAt: number) => {
  const res = await node.call("POST", "/api/maintenance", { title: "Deploy", scope: "targets", monitorIds, schedule: { kind: "once", startsAt, endsAt } });
  expect(res.status).toBe(201);
};
const checkNow = async (node: Node, id: number) => expect((await node.call("POST", `/api/monitors/${id}/check`)).status).toBe(200);

describe("maintenance windows on the real clock, in the shipped server", () => {
  test("a window begins and ends by itself: down alert before it, silence in it, a fresh down after it", async () => {
    const target = targets();
    const hook = receiver();
    const node = await serve({});
    await setUp(node, hook.url);

    // Before the window: the failure is notified, the recovery too.
    target.set("/shop", 500);
    const id = await createMonitor(node, "Shop", target.url("/shop"));
    await until("the down alert", () => hook.of("down", id) === 1, 15_000);
    target.set("/shop", 200);
    await checkNow(node, id);
    await until("the recovery", () => hook.of("recovery", id) === 1, 15_000);

    const start = Date.now() + 8_000;
    const end = start + 15_000;
    await createWindow(node, [id], start, end);
    expect(await node.monitor(id)).toMatchObject({ status: "up", maintenance: false });

    // In the window (begun by itself): the target fails, nothing is sent.
    await sleepUntil(start + 500);
    await until("the window to begin", async () => (await node.monitor(id)).maintenance, 5_000);
    target.set("/shop", 500);
    await checkNow(node, id);
    expect(await node.monitor(id)).toMatchObject({ status: "down", maintenance: true });
    await Bun.sleep(3_000);
    expect(hook.of("down", id)).toBe(1);

    // It ends by itself: out of maintenance, and a fresh down.
    await sleepUntil(end);
    await until("the window to end", async () => !(await node.monitor(id)).maintenance, 5_000);
    await until("a fresh down alert", () => hook.of("down", id) === 2, 15_000);
    expect(await node.monitor(id)).toMatchObject({ status: "down", maintenance: false });
    await Bun.sleep(2_000);
    expect(hook.of("down", id)).toBe(2);
    await node.stop();
  }, 90_000);

  test("stopped during a window: one that ended meanwhile is left at start-up with a fresh down; one still on ends by itself", async () => {
    const target = targets();
    const hook = receiver();
    const dataDir = mkdtempSync(join(tmpdir(), "vigil-window-restart-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let node = await serve({ dataDir });
    const token = await setUp(node, hook.url);
    const a = await createMonitor(node, "Shop A", target.url("/a"));
    const b = await createMonitor(node, "Shop B", target.url("/b"));
    const start = Date.now() + 8_000;
    const endA = start + 10_000;
    const endB = start + 25_000;
    await createWindow(node, [a], start, endA);
    await createWindow(node, [b], start, endB);

    await sleepUntil(start + 500);
    await until("the windows to begin", async () => (await node.monitor(a)).maintenance && (await node.monitor(b)).maintenance, 5_000);
    target.set("/a", 500);
    target.set("/b", 500);
    await checkNow(node, a);
    await checkNow(node, b);
    await node.stop();
    expect([hook.of("down", a), hook.of("down", b)]).toEqual([0, 0]);

    // A's window ends while the server is stopped; B's after it is back.
    await sleepUntil(endA + 1_000);
    node = await serve({ dataDir });
    node.useToken(token);
    expect(await node.monitor(a)).toMatchObject({ status: "down", maintenance: false });
    expect(await node.monitor(b)).toMatchObject({ status: "down", maintenance: true });
    await until("A's fresh down", () => hook.of("down", a) === 1, 15_000);
    expect(hook.of("down", b)).toBe(0);

    await sleepUntil(endB);
    await until("B's window to end", async () => !(await node.monitor(b)).maintenance, 5_000);
    await until("B's fresh down", () => hook.of("down", b) === 1, 15_000);
    await Bun.sleep(2_000);
    expect([hook.of("down", a), hook.of("down", b)]).toEqual([1, 1]);
    await node.stop();
  }, 120_000);

  /** Two nodes on a fresh schema, the first user and the webhook set up, each node holding a share of the monitors. */
  async function twoNodes(hookUrl: string) {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const env = { VIGIL_DATABASE_URL: schema.url };
    const n1 = await serve({ args: ["--node-name", "n1"], env });
    const token = await setUp(n1, hookUrl);
    const n2 = await serve({ args: ["--node-name", "n2"], env });
    n2.useToken(token);
    const leases = async (node: Node) => ((await (await fetch(`${node.server.base}/healthz`)).json()) as { leases: number }).leases;
    await until("both nodes to hold monitors", async () => (await leases(n1)) > 0 && (await leases(n2)) > 0 && (await leases(n1)) + (await leases(n2)) === 256, 60_000);
    const db = await openDatabase(schema.url);
    cleanups.push(() => db.close());
    const owner = async (id: number) => {
      const [row] = await db.rows<{ node: string }>(sql`SELECT node FROM cluster_leases WHERE bucket = ${bucketOf(id)}`);
      return row!.node === "n1" ? n1 : n2;
    };
    return { n1, n2, owner };
  }

  test.skipIf(!TEST_DATABASE_URL)("two nodes on one PostgreSQL database: both follow the window, one fresh down", async () => {
    const target = targets();
    const hook = receiver();
    const { n1, n2 } = await twoNodes(hook.url);

    const id = await createMonitor(n1, "Shop", target.url("/shop"));
    await until("the other node to know the monitor", async () => (await n2.call("GET", `/api/monitors/${id}`)).status === 200, 10_000);
    const start = Date.now() + 8_000;
    const end = start + 12_000;
    await createWindow(n2, [id], start, end);

    await sleepUntil(start + 500);
    for (const node of [n1, n2]) await until("the window to begin on every node", async () => (await node.monitor(id)).maintenance, 5_000);
    target.set("/shop", 500);
    await checkNow(n2, id);
    await Bun.sleep(2_000);
    expect(hook.of("down", id)).toBe(0);

    await sleepUntil(end);
    for (const node of [n1, n2]) await until("the window to end on every node", async () => !(await node.monitor(id)).maintenance, 5_000);
    await until("a fresh down alert", () => hook.of("down", id) >= 1, 15_000);
    await Bun.sleep(5_000);
    expect(hook.of("down", id)).toBe(1);
    await n2.stop();
    await n1.stop();
  }, 150_000);

  test.skipIf(!TEST_DATABASE_URL)("the node checking a monitor dies in its window: after the window, one fresh down from the survivor", async () => {
    const target = targets();
    const hook = receiver();
    const { n1, n2, owner } = await twoNodes(hook.url);

    const id = await createMonitor(n1, "Shop", target.url("/shop"));
    const start = Date.now() + 8_000;
    const end = start + 8_000;
    await createWindow(n1, [id], start, end);
    const victim = await owner(id);
    const survivor = victim === n1 ? n2 : n1;

    await sleepUntil(start + 500);
    await until("the window to begin", async () => (await survivor.monitor(id)).maintenance, 5_000);
    target.set("/shop", 500);
    await checkNow(survivor, id);
    await Bun.sleep(2_000); // written (the writer flushes every second)
    // Its leases stay taken until they expire (15 s): the window ends while nobody checks the monitor.
    await victim.kill();

    await sleepUntil(end);
    await until("the window to end", async () => !(await survivor.monitor(id)).maintenance, 5_000);
    await until("a fresh down alert", () => hook.of("down", id) >= 1, 40_000);
    await Bun.sleep(5_000);
    expect(hook.of("down", id)).toBe(1);
    expect(await survivor.monitor(id)).toMatchObject({ status: "down", maintenance: false });
    await survivor.stop();
  }, 150_000);
});
