// Escalation across nodes, end to end with real processes: two `vigil` nodes (server/main.ts) on one PostgreSQL schema,
// a "minute" of the settings shortened to 2 s (VIGIL_TEST_MINUTE_MS, hidden, for tests: config.ts), a webhook receiver
// counting each channel's messages and each event's (step, repeat). Each policy step pages a channel of its own.
// 1. Both nodes run throughout: a monitor the member checks fails; its policy (3 steps, one repeat of the last) pages
//    step 1 from the member as it raises the alert, then steps 2, 3 and the repeat from the leader's timer — each once,
//    in order, on time — and the recovery reaches each paged channel once.
// 2. A monitor the leader checks fails; the leader is SIGKILLed between step 2 and step 3: once its leases expire the
//    survivor leads and checks the monitor, and pages step 3 and the repeat once each, nothing before them again; the
//    recovery reaches each paged channel once.
// PostgreSQL only (npm test runs it in stream C after the failover test); about a minute and a half.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { bucketOf } from "../cluster/leases";
import { api, health, startNode, until, type TestNode } from "../cluster/test-nodes";
import type { Db } from "../db/database";
import { openDatabase } from "../db/open";
import { testEngine, testSchema } from "../db/test-db";

const MINUTE_MS = 2_000;
const PASSWORD = "correct horse";
/** How late a page may arrive after it falls due on a busy machine: the timer's look (a quarter minute), the outbox's gathering, two processes sharing two cores. */
const LATE_MS = 6_000;

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Received {
  path: string;
  at: number;
  /** Each event of the message: "down 2.0" (step 2, repeat 0), "recovery". */
  events: string[];
}

describe.skipIf(testEngine !== "postgres")("escalation on two nodes", () => {
  test("each step and the repeat once, in order, on time, with both nodes up and when the leader dies between steps 2 and 3", async () => {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const db: Db = await openDatabase(schema.url);
    cleanups.push(() => db.close());
    const dataRoot = mkdtempSync(join(tmpdir(), "vigil-escalation-"));
    cleanups.push(() => rmSync(dataRoot, { recursive: true, force: true }));

    // Targets answering 200 until told otherwise; the receiver keeps every message with its events and arrival.
    const status = new Map<string, number>();
    const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => new Response("x", { status: status.get(new URL(req.url).pathname) ?? 200 }) });
    cleanups.push(() => target.stop(true));
    const received: Received[] = [];
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        const at = Date.now();
        const { events } = (await req.json()) as { events: { kind: string; facts: { escalationStep?: number; escalationRepeat?: number } }[] };
        received.push({ path: new URL(req.url).pathname, at, events: events.map((e) => (e.facts.escalationStep ? `${e.kind} ${e.facts.escalationStep}.${e.facts.escalationRepeat}` : e.kind)) });
        return new Response("ok");
      },
    });
    cleanups.push(() => receiver.stop(true));
    const at = (path: string) => received.filter((r) => r.path === path);
    const said = (path: string) => at(path).flatMap((r) => r.events);

    const start = (name: string) => startNode(name, { dataRoot, databaseUrl: schema.url, env: { VIGIL_TEST_MINUTE_MS: String(MINUTE_MS) }, cleanups });
    const nodes = [await start("n1"), await start("n2")];
    await until("an even split (128/128)", async () => (await Promise.all(nodes.map(health))).map((h) => h.leases).join() === "128,128", 40_000);
    const roles = await Promise.all(nodes.map(health));
    const leader = nodes[roles.findIndex((h) => h.role === "leader")]!;
    const member = nodes.find((n) => n !== leader)!;
    expect(roles.map((h) => h.role).sort()).toEqual(["leader", "member"]);

    // The admin, and every call after on the member (the leader is killed later).
    expect((await api(member, "POST", "/api/auth/register", { username: "admin", password: PASSWORD, confirmPassword: PASSWORD })).status).toBe(201);
    const token = (await api(member, "POST", "/api/auth/login", { username: "admin", password: PASSWORD })).body.token as string;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await api(member, method, path, body, token);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    /**
     * A monitor checked by `owner`: its id is chosen in a bucket the owner holds (the id sequence set just below it),
     * so which node raises its alert and which one dies is not left to the leases' random split.
     */
    const monitorOn = async (owner: TestNode, name: string) => {
      const buckets = new Set((await db.rows<{ bucket: number }>(sql`SELECT bucket FROM cluster_leases WHERE node = ${owner.name}`)).map((r) => r.bucket));
      const [{ last }] = await db.rows<{ last: number }>(sql`SELECT COALESCE(MAX(id), 0)::int AS last FROM monitors`);
      let id = Math.max(2, last + 1);
      while (!buckets.has(bucketOf(id))) id++;
      await db.rows(sql`SELECT setval(pg_get_serial_sequence('monitors', 'id'), ${id - 1})`);
      const made = await call("POST", "/api/monitors", { name, url: `http://127.0.0.1:${target.port}/${name}`, retries: 0, interval: 1 });
      expect(made.monitor.id).toBe(id);
      return id;
    };
    const channels = async (name: string) => {
      const ids: number[] = [];
      for (const step of [1, 2, 3]) ids.push((await call("POST", "/api/notifications/channels", { name: `${name}${step}`, type: "webhook", config: { url: `http://127.0.0.1:${receiver.port}/${name}/${step}` } })).channel.id);
      return ids;
    };
    /** A policy of three steps, each paging its own channel, and one repeat of the last; `waits` in policy minutes. */
    const policy = async (monitorId: number, ids: number[], waits: [number, number], repeatEvery: number) =>
      call("POST", "/api/escalation-policies", {
        name: `Policy ${monitorId}`,
        steps: ids.map((id, i) => ({ channelIds: [id], waitMinutes: waits[i] ?? 1 })),
        repeatEveryMinutes: repeatEvery,
        repeatLimit: 1,
        monitorIds: [monitorId],
      });

    // Neither monitor has a channel of its own: its policy alone pages. Both up until their phase.
    const a = await monitorOn(member, "a");
    const b = await monitorOn(leader, "b");
    await policy(a, await channels("a"), [2, 2], 2);
    await policy(b, await channels("b"), [2, 15], 3);

    /** When the alert of a monitor was raised (its escalation run counts from it). */
    const raisedAt = async (id: number) => Number((await db.rows<{ raised_at: number }>(sql`SELECT raised_at FROM escalation_runs WHERE target_id = ${id}`))[0]?.raised_at);
    /** The node's "escalated" log lines for a monitor, as "step.repeat" (0-based step, the last one of a look). */
    const escalatedBy = (node: TestNode, id: number) =>
      node.log.flatMap((line) => {
        const m = new RegExp(`escalated problem=monitor:${id}:down step=(\\d+) repeat=(\\d+)`).exec(line);
        return m ? [`${m[1]}.${m[2]}`] : [];
      });
    /** Asserts when each page arrived, from the raise: never before it was due, at most LATE_MS after `notBefore`. */
    const onTime = (name: string, raised: number, dues: [string, number, number?][]) => {
      const arrivals = dues.map(([label, dueMinutes, notBefore]) => {
        const path = `/${name}/${label.split(".")[0]}`;
        const message = at(path).find((r) => r.events.includes(`down ${label}`));
        if (!message) throw new Error(`no ${label} at ${path}: ${JSON.stringify(received)}`);
        const due = raised + dueMinutes * MINUTE_MS;
        expect(message.at).toBeGreaterThanOrEqual(due - 100);
        expect(message.at).toBeLessThanOrEqual(Math.max(due, notBefore ?? 0) + LATE_MS);
        return message.at;
      });
      // In order.
      expect(arrivals).toEqual([...arrivals].sort((x, y) => x - y));
      console.log(`${name}: raised at 0, pages at ${arrivals.map((t, i) => `${dues[i]![0]} +${t - raised} ms`).join(", ")}`);
    };
    /** Every message at the monitor's three channels: each step once, the repeat once, the recovery once to each. */
    const exactlyOnce = (name: string) => {
      expect(said(`/${name}/1`)).toEqual(["down 1.0", "recovery"]);
      expect(said(`/${name}/2`)).toEqual(["down 2.0", "recovery"]);
      expect(said(`/${name}/3`)).toEqual(["down 3.0", "down 3.1", "recovery"]);
      // One event per message: nothing of the same channel was grouped, so the counts above are messages too.
      for (const step of [1, 2, 3]) expect(at(`/${name}/${step}`).every((r) => r.events.length === 1)).toBe(true);
    };
    const nothingUnsent = async () => {
      const open = await db.rows<{ status: string; n: number }>(sql`SELECT status, count(*)::int AS n FROM notification_messages WHERE status <> 'sent' GROUP BY status`);
      return open.length === 0;
    };

    // 1. Both nodes up throughout. Steps at 0, 2 and 4 policy minutes, the repeat at 6.
    status.set("/a", 500);
    await until("a's step 1", () => at("/a/1").length === 1, 20_000);
    const raisedA = await raisedAt(a);
    expect(raisedA).toBeGreaterThan(0);
    await until("a's repeat", () => said("/a/3").includes("down 3.1"), 6 * MINUTE_MS + LATE_MS + 5_000);
    onTime("a", raisedA, [["1.0", 0], ["2.0", 2], ["3.0", 4], ["3.1", 6]]);
    // No second repeat (its limit is one), then the recovery.
    await Bun.sleep(3 * MINUTE_MS);
    status.set("/a", 200);
    await until("a's recovery to each paged channel", () => [1, 2, 3].every((s) => said(`/a/${s}`).includes("recovery")), 20_000);
    await Bun.sleep(2 * MINUTE_MS);
    exactlyOnce("a");
    // Step 1 came from the member as it raised the alert (the leader's timer may have looked at the new run meanwhile:
    // the outbox took step 1 once all the same); the later ones from the leader's timer alone.
    expect(escalatedBy(member, a)).toEqual(["0.0"]);
    expect(escalatedBy(leader, a).filter((s) => s !== "0.0")).toEqual(["1.0", "2.0", "2.1"]);
    expect(nodes.every((n) => n.proc.exitCode === null)).toBe(true);
    expect((await Promise.all(nodes.map(health))).map((h) => `${h.role}:${h.leases}`)).toEqual(nodes.map((n) => `${n === leader ? "leader" : "member"}:128`));

    // 2. b fails on the leader: steps at 0 and 2, step 3 at 17, the repeat at 20 policy minutes.
    status.set("/b", 500);
    await until("b's step 2", () => at("/b/2").length === 1, 2 * MINUTE_MS + LATE_MS + 20_000);
    const raisedB = await raisedAt(b);
    // Killed once step 2's message is written as sent (a kill in the middle of a send may repeat it: the outbox's
    // at-least-once window, one request long, is not what this test is about).
    await until("step 2 recorded as sent", nothingUnsent, 10_000);
    const killedAt = Date.now();
    expect(killedAt).toBeLessThan(raisedB + 17 * MINUTE_MS);
    expect(at("/b/3")).toEqual([]);
    leader.proc.kill("SIGKILL");
    await until("the survivor to lead", async () => (await health(member)).role === "leader", 40_000);
    const tookOverAt = Date.now();
    console.log(`b: leader killed ${killedAt - raisedB} ms after the raise; the survivor leads ${tookOverAt - killedAt} ms later`);
    await until("b's repeat", () => said("/b/3").includes("down 3.1"), Math.max(0, raisedB + 20 * MINUTE_MS - Date.now()) + LATE_MS + 5_000);
    onTime("b", raisedB, [["1.0", 0], ["2.0", 2], ["3.0", 17, tookOverAt], ["3.1", 20, tookOverAt]]);
    await Bun.sleep(3 * MINUTE_MS);
    status.set("/b", 200);
    await until("b's recovery to each paged channel", () => [1, 2, 3].every((s) => said(`/b/${s}`).includes("recovery")), 20_000);
    await Bun.sleep(2 * MINUTE_MS);
    exactlyOnce("b");
    // Steps 1 and 2 from the leader before it died; step 3 and the repeat from the survivor's timer.
    expect(escalatedBy(leader, b)).not.toContain("2.0");
    expect(escalatedBy(member, b).filter((s) => s.startsWith("2."))).not.toEqual([]);
    expect(escalatedBy(member, b).every((s) => s.startsWith("2."))).toBe(true);
    // Nothing more for a meanwhile; nothing left unsent or failed.
    exactlyOnce("a");
    expect(await nothingUnsent()).toBe(true);

    member.proc.kill("SIGTERM");
    await until("the survivor to stop", () => member.proc.exitCode !== null, 30_000);
  }, 240_000);
});
