// Crash test: the real server process killed with SIGKILL in the middle of heavy check, ingest and notification load,
// then started again on the same data directory. Every acknowledged write must be there, no queued notification lost
// (nor repeated beyond the one request that was on the wire), at most the last second of check results missing, and
// the database intact.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiClient, startServer, type RunningServer } from "../../scripts/bench/proc";
import { testHost, testSample } from "../agents/test-fixtures";
import { PASSWORD } from "../test-support";

const MONITORS = 300;
const LOAD_MS = 4_000;

const dataDir = mkdtempSync(join(tmpdir(), "vigil-crash-"));
const servers: RunningServer[] = [];

// The checked service: records when each monitor's check reached it. Odd monitors answer 500 (down → notifications).
const checksSeen: { monitor: number; at: number }[] = [];
const target = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const monitor = Number(new URL(req.url).pathname.split("/")[2]);
    checksSeen.push({ monitor, at: Date.now() });
    return new Response("ok", { status: monitor % 2 ? 500 : 200 });
  },
});

// The webhook: slow to answer, so a delivery is on the wire when the kill comes.
const received: { events: { kind: string; target: { id: number }; time: number }[] }[] = [];
const hook = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const body = await req.json();
    await Bun.sleep(150);
    received.push(body);
    return new Response("ok");
  },
});

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill("SIGKILL");
  target.stop(true);
  hook.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
});

test("SIGKILL under load, then restart: every acknowledged write is there, nothing queued lost, the database intact", async () => {
  const first = await startServer(dataDir);
  servers.push(first);
  const call = apiClient(first.base);
  await call("POST", "/api/auth/register", { username: "alice", password: PASSWORD });
  const token = (await call("POST", "/api/auth/login", { username: "alice", password: PASSWORD })).token as string;
  const channel = (await call("POST", "/api/notifications/channels", { name: "hook", type: "webhook", config: { url: `http://127.0.0.1:${hook.port}/` } }, token)).channel.id as number;
  const settings = (language: string) => ({
    monitor: { enabled: true, channelIds: [channel], events: { down: true, recovery: true }, reminderMinutes: 0 },
    agent: { enabled: false, channelIds: [], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
    language,
  });
  expect((await call("PUT", "/api/notifications/settings", settings("en-US"), token)).success).toBe(true);
  const agentToken = (await call("POST", "/api/agents/tokens", {}, token)).token as string;
  const agent = await call("POST", "/api/agents/register", { token: agentToken, name: "db-1", host: testHost });
  const credential = agent.credential as string;

  // Load, recording only what the server acknowledged with a 2xx.
  const acked = { monitors: [] as string[], users: [] as string[], channels: [] as string[], samples: [] as number[], language: "" };
  // The loops run until the kill has landed; the kill waits for enough acknowledged writes (a busy machine is slower).
  let killed = false;
  const post = (path: string, body: unknown, auth = token) =>
    fetch(first.base + path, { method: path.includes("settings") ? "PUT" : "POST", headers: { "content-type": "application/json", authorization: `Bearer ${auth}` }, body: JSON.stringify(body) });
  const loops = [
    // Monitors, each checked at once on creation (odd ones go down and notify).
    (async () => {
      for (let i = 0; i < MONITORS && !killed; i++) {
        const name = `m${i}`;
        const res = await post("/api/monitors", { name, url: `http://127.0.0.1:${target.port}/m/${i + 1}`, interval: 1, retries: 0 }).catch(() => null);
        if (res?.status === 201) acked.monitors.push(name);
      }
    })(),
    // An agent reporting as fast as it is answered.
    (async () => {
      for (let time = Date.now() - 60_000; !killed; time += 50) {
        const res = await post("/api/agents/report", { host: testHost, interval: 5, samples: [testSample(time)] }, credential).catch(() => null);
        if (res?.status === 200) acked.samples.push(time);
      }
    })(),
    // Accounts, channels and settings written meanwhile.
    (async () => {
      for (let i = 0; !killed; i++) {
        const user = await post("/api/users", { username: `user${i}`, password: PASSWORD }).catch(() => null);
        if (user?.status === 201) acked.users.push(`user${i}`);
        const ch = await post("/api/notifications/channels", { name: `ch${i}`, type: "webhook", config: { url: `http://127.0.0.1:${hook.port}/${i}` } }).catch(() => null);
        if (ch?.status === 201) acked.channels.push(`ch${i}`);
        const language = i % 2 ? "en-US" : "zh-CN";
        const set = await post("/api/notifications/settings", settings(language)).catch(() => null);
        if (set?.status === 200) acked.language = language;
      }
    })(),
  ];
  // The kill comes while all of it runs: after LOAD_MS of load and once each kind of write has been acknowledged
  // enough times (at most 60 s: the assertions below then say which fell short).
  const started = Date.now();
  const enough = () => acked.monitors.length > 50 && acked.samples.length > 20 && acked.users.length > 3;
  while (Date.now() - started < LOAD_MS || (!enough() && Date.now() - started < 60_000)) await Bun.sleep(100);
  const killedAt = Date.now();
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  killed = true;
  await Promise.all(loops);
  expect(acked.monitors.length).toBeGreaterThan(50);
  expect(acked.samples.length).toBeGreaterThan(20);
  expect(acked.users.length).toBeGreaterThan(3);

  // Restart over the same data directory (the stale vigil.pid of the killed process must not stop it).
  const second = await startServer(dataDir);
  servers.push(second);
  // Let the outbox resume and drain what was queued.
  const db = new Database(join(dataDir, "vigil.db"), { readonly: true });
  const queued = () => db.query("SELECT count(*) AS n FROM notification_events WHERE channel_id = ?").get(channel) as { n: number };
  const unsent = () => db.query("SELECT count(*) AS n FROM notification_messages WHERE status = 'pending'").get() as { n: number };
  // Events not in a message yet wait for the channel's storm pacing, kept across the restart (a gap of up to a minute).
  const waiting = () => db.query("SELECT count(*) AS n FROM notification_events WHERE message_id IS NULL").get() as { n: number };
  for (let i = 0; i < 400 && (unsent().n > 0 || waiting().n > 0); i++) await Bun.sleep(200);
  await second.stop();

  expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
  const names = (sql: string) => new Set((db.query(sql).all() as { name: string }[]).map((r) => r.name));
  const monitors = names("SELECT name FROM monitors");
  expect(acked.monitors.filter((m) => !monitors.has(m))).toEqual([]);
  const users = names("SELECT username AS name FROM users");
  expect(acked.users.filter((u) => !users.has(u))).toEqual([]);
  const channels = names("SELECT name FROM notification_channels");
  expect(acked.channels.filter((c) => !channels.has(c))).toEqual([]);
  const settingsRow = db.query("SELECT value FROM settings WHERE key LIKE '%notification%'").get() as { value: string } | null;
  expect(acked.language).not.toBe("");
  expect(settingsRow?.value ?? "").toContain(`"language":"${acked.language}"`);
  const samples = new Set((db.query("SELECT time FROM agent_samples").all() as { time: number }[]).map((r) => r.time));
  expect(acked.samples.filter((s) => !samples.has(s))).toEqual([]);

  // Check results: every check that reached the target more than a second before the kill is recorded.
  const idByName = new Map((db.query("SELECT id, name FROM monitors").all() as { id: number; name: string }[]).map((r) => [r.name, r.id]));
  const results = db.query("SELECT monitor_id AS monitor, time FROM check_results").all() as { monitor: number; time: number }[];
  const missing = checksSeen
    .filter((c) => c.at < killedAt - 1_000)
    .filter((c) => {
      const id = idByName.get(`m${c.monitor - 1}`);
      return !results.some((r) => r.monitor === id && Math.abs(r.time - c.at) < 1_000);
    });
  expect(missing).toEqual([]);

  // Notifications: every queued event reached the webhook; none twice, but for the one message on the wire at the kill.
  expect(queued().n).toBeGreaterThan(0);
  expect(unsent().n).toBe(0);
  const events = db.query("SELECT event FROM notification_events WHERE channel_id = ?").all(channel) as { event: string }[];
  const key = (e: { kind: string; target: { id: number }; time: number }) => `${e.kind}:${e.target.id}:${e.time}`;
  const deliveredCount = new Map<string, number>();
  for (const message of received) for (const e of message.events) deliveredCount.set(key(e), (deliveredCount.get(key(e)) ?? 0) + 1);
  const lost = events.map((r) => key(JSON.parse(r.event))).filter((k) => !deliveredCount.has(k));
  expect(lost).toEqual([]);
  const repeated = received.filter((m) => m.events.some((e) => (deliveredCount.get(key(e)) ?? 0) > 1));
  // A repeat can only be the message that was on the wire: it arrives twice, whole.
  expect(new Set(repeated.map((m) => JSON.stringify(m.events))).size).toBeLessThanOrEqual(1);
  db.close();
}, 120_000);
