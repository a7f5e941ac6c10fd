// Failover, end to end with real processes: three `vigil` nodes on one PostgreSQL database check 3 000 monitors at
// one minute; one node is killed (SIGKILL) → its monitors are checked by the others within 30 s of their slots, no
// slot is recorded twice, and a target that goes down during the failover is notified exactly once; the killed node
// restarts and takes its share back. PostgreSQL only (npm test runs it in the PostgreSQL pass); about two minutes.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { openDatabase } from "../db/open";
import { testEngine, testSchema } from "../db/test-db";
import { slotAtOrAfter } from "../monitors/scheduler";
import { bucketOf } from "./leases";
import { api, health, startNode, until } from "./test-nodes";

const MONITORS = 3000;
const MINUTE = 60_000;
const PASSWORD = "correct horse";

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(testEngine !== "postgres")("failover", () => {
  test("3 nodes, 3 000 monitors at 1 min, one SIGKILLed: ≤ 30 s late, no slot twice, one notification, share taken back", async () => {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const db: Db = await openDatabase(schema.url);
    cleanups.push(() => db.close());
    const dataRoot = mkdtempSync(join(tmpdir(), "vigil-failover-"));
    cleanups.push(() => rmSync(dataRoot, { recursive: true, force: true }));

    // Targets: every monitor but one checks a page that stays up; the flaky one goes down during the failover.
    let flakyDown = false;
    const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => new Response("ok", { status: flakyDown && req.url.endsWith("/flaky") ? 500 : 200 }) });
    cleanups.push(() => target.stop(true));
    const hooks: { monitorId?: number; kind?: string; event?: { kind?: string; target?: { id?: number } } }[] = [];
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        hooks.push((await req.json()) as (typeof hooks)[number]);
        return new Response("ok");
      },
    });
    cleanups.push(() => receiver.stop(true));

    // The monitors, written before any node starts (each node reads them all at start).
    const now = Date.now();
    const rows = Array.from({ length: MONITORS }, (_, i) => ({
      name: `m${i + 1}`,
      settings: { url: `http://127.0.0.1:${target.port}/${i === MONITORS - 1 ? "flaky" : `ok/${i + 1}`}` },
      intervalSeconds: 60,
      timeoutMs: 5000,
      retries: 0,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.orm.insert(db.t.monitors).values(rows.slice(i, i + 500));
    const flakyId = MONITORS;

    const start = (name: string) => startNode(name, { dataRoot, databaseUrl: schema.url, cleanups });

    const nodes = [await start("n1"), await start("n2"), await start("n3")];
    await until("an even split (86/85/85)", async () => (await Promise.all(nodes.map(health))).map((h) => h.leases).sort().join() === "85,85,86", 40_000);

    // An admin, a webhook channel, and the flaky monitor's alerts going to it, each call to a different node.
    expect((await api(nodes[0]!, "POST", "/api/auth/register", { username: "admin", password: PASSWORD, confirmPassword: PASSWORD })).status).toBe(201);
    const token = (await api(nodes[1]!, "POST", "/api/auth/login", { username: "admin", password: PASSWORD })).body.token as string;
    const channel = await api(nodes[2]!, "POST", "/api/notifications/channels", { name: "Hook", type: "webhook", config: { url: `http://127.0.0.1:${receiver.port}/hook` } }, token);
    expect(channel.status).toBe(201);
    const settings = { enabled: true, channelIds: [channel.body.channel.id], events: { down: true, recovery: false }, reminderMinutes: 0 };
    expect((await api(nodes[0]!, "PUT", `/api/notifications/settings/monitors/${flakyId}`, settings, token)).status).toBe(200);

    // Let every node check a full minute, then kill the one that checks the flaky monitor.
    await Bun.sleep(MINUTE + 5_000);
    const [{ node: ownerName }] = await db.rows<{ node: string }>(sql`SELECT node FROM cluster_leases WHERE bucket = ${bucketOf(flakyId)}`);
    const victim = nodes.find((n) => n.name === ownerName)!;
    const killedAt = Date.now();
    victim.proc.kill("SIGKILL");
    await Bun.sleep(3_000);
    flakyDown = true;

    // The survivors take everything within a lease (15 s) and a tick (5 s).
    const survivors = nodes.filter((n) => n !== victim);
    await until("the survivors to hold every bucket", async () => (await Promise.all(survivors.map(health))).reduce((sum, h) => sum + h.leases, 0) === 256, 30_000);
    const takenOverIn = Date.now() - killedAt;

    // The killed node comes back (same name) and takes its share back.
    await Bun.sleep(Math.max(0, killedAt + 45_000 - Date.now()));
    const restarted = await start(victim.name);
    nodes[nodes.indexOf(victim)] = restarted;
    await until("the restarted node's share", async () => (await health(restarted)).leases >= 85, 30_000);
    await Bun.sleep(Math.max(0, killedAt + 110_000 - Date.now()));
    const endAt = Date.now();

    // Stopped cleanly so every result is written.
    for (const n of nodes) n.proc.kill("SIGTERM");
    await until("the nodes to stop", () => nodes.every((n) => n.proc.exitCode !== null), 30_000);

    // Every slot from a minute before the kill to 40 s before the end: one check, at most 30 s after the slot.
    const from = killedAt - MINUTE;
    const to = endAt - 40_000;
    const checks = await db.rows<{ monitor_id: number; time: number }>(
      sql`SELECT monitor_id, time FROM check_results WHERE time >= ${from - MINUTE} ORDER BY monitor_id, time`,
    );
    const byMonitor = new Map<number, number[]>();
    for (const c of checks) (byMonitor.get(c.monitor_id) ?? byMonitor.set(c.monitor_id, []).get(c.monitor_id)!).push(c.time);
    let worstLate = 0;
    const missed: string[] = [];
    const twice: string[] = [];
    for (let id = 1; id <= MONITORS; id++) {
      const times = byMonitor.get(id) ?? [];
      for (let slot = slotAtOrAfter(from, id, MINUTE); slot <= to; slot += MINUTE) {
        const inSlot = times.filter((t) => t >= slot && t < slot + MINUTE);
        if (inSlot.length === 0) missed.push(`${id}@${new Date(slot).toISOString()}`);
        else {
          worstLate = Math.max(worstLate, inSlot[0]! - slot);
          if (inSlot.length > 1) twice.push(`${id}@${new Date(slot).toISOString()}: ${inSlot.map((t) => t - slot).join(",")}`);
        }
      }
    }
    console.log(`failover: survivors held every bucket ${takenOverIn} ms after the kill; latest check ${worstLate} ms after its slot`);
    expect(missed.slice(0, 5)).toEqual([]);
    expect(twice.slice(0, 5)).toEqual([]);
    expect(worstLate).toBeLessThanOrEqual(30_000);

    // The flaky target went down once, during the failover: one notification, whichever node noticed.
    const downs = hooks.filter((h) => JSON.stringify(h).includes("flaky") || JSON.stringify(h).includes(`m${MONITORS}`));
    expect(downs.length).toBe(1);
  }, 240_000);
});
