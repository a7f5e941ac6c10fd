// What alerts state about time and place: an outage counts from the first failed check (before retries), an agent's
// from its last report; the offline message says when that report came and from which address.
import { afterEach, beforeEach, expect, setSystemTime, test } from "bun:test";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { webhookForEverything } from "./test-channel";
import { testApp } from "../test-support";
import { startFake, type Fake } from "./providers/test-fake";

const T0 = Date.UTC(2026, 10, 23, 3, 0, 0);
let hook: Fake;
const opened: { services: Services; db: Db }[] = [];

beforeEach(() => {
  hook = startFake(() => new Response("ok"));
  setSystemTime(new Date(T0));
});
afterEach(async () => {
  setSystemTime();
  hook.stop();
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop();
    await db.close();
  }
});

const at = (seconds: number) => setSystemTime(new Date(T0 + seconds * 1000));
const messages = () => hook.received.map((r) => r.json as { title: string; lines: string[] });

async function setup(trustProxy = 0) {
  const db = await testDb();
  const services = await createServices(db, { monitors: { tls: false }, notifications: { send: { timeoutMs: 1_000 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services, config: { tokenTtl: "7d", trustProxy, links: { blog: "https://b.example", video: "https://v.example", tempMail: "https://m.example" } } });
  const { token } = await t.signUp("alice");
  await webhookForEverything(t.call, token, `${hook.url}/hook`);
  /** Lets the rules handle the events so far (at the current time), then the outbox send what it gathered by `seconds`. */
  const sendAt = async (seconds: number) => {
    await services.notifications.idle();
    at(seconds);
    return services.notifications.outbox.tick();
  };
  return { ...t, token, sendAt };
}

/** A TCP port that accepts while open and refuses once closed. */
async function tcpTarget() {
  let server: Server | null = null;
  const open = (port = 0) => new Promise<number>((resolve) => {
    server = createServer((socket) => socket.end()).listen(port, "127.0.0.1", () => resolve((server!.address() as AddressInfo).port));
  });
  const port = await open();
  return {
    port,
    close: () => new Promise<void>((resolve) => server!.close(() => resolve())),
    reopen: () => open(port),
  };
}

test("a 52 s TCP outage with 2 retries reads 52 s: from the first failed check, not from the down verdict", async () => {
  const t = await setup();
  const target = await tcpTarget();
  const created = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", {
    token: t.token,
    body: { name: "Postgres", type: "tcp", host: "127.0.0.1", port: target.port, retries: 2, active: false },
  });
  const id = created.body.monitor.id;
  const check = () => t.call("POST", `/api/monitors/${id}/check`, { token: t.token });
  await check(); // up
  await target.close();
  for (const s of [0, 20, 40]) {
    at(s);
    await check(); // fails at 0 s and 20 s (retries), down at 40 s
  }
  await t.sendAt(41);
  await target.reopen();
  at(52);
  await check();
  await t.sendAt(60);
  const [down, recovery] = messages();
  expect(down.title).toBe("🔴 Monitor down: Postgres");
  expect(recovery.title).toBe("🟢 Monitor recovered: Postgres");
  expect(recovery.lines).toContain("Down for: 52s");
  await target.close();
});

test("an agent's offline message says when it last reported and from where; 'back online' counts from that report", async () => {
  const t = await setup(1);
  const regToken = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: t.token })).body.token;
  const host = { hostname: "db-1.internal", ips: ["10.0.0.5"], os: "Linux", kernel: "6", arch: "x64", uptime: 1, agentVersion: "0.1.0" };
  const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: regToken, name: "db-1", host } });
  const sample = { cpu: { usage: 5, cores: 2, model: "x" }, memory: { total: 8, used: 1, free: 7, usageRate: 12.5 }, disks: [], network: [], load: { one: 0, five: 0, fifteen: 0 } };
  const report = () =>
    t.call("POST", "/api/agents/report", {
      headers: { authorization: `Bearer ${reg.body.credential}`, "x-forwarded-for": "203.0.113.7" },
      body: { host, interval: 10, samples: [{ ...sample, time: Date.now() }] },
    });
  at(0);
  expect((await report()).status).toBe(200);
  at(45);
  await t.services.agents.checkPresence(); // silent for 45 s: offline
  await t.sendAt(46);
  const [offline] = messages();
  expect(offline.title).toBe("🔴 Agent offline: db-1");
  expect(offline.lines).toContain("Last report: 2026-11-23 03:00:00 (UTC+00:00)");
  expect(offline.lines).toContain("From address: 203.0.113.7");
  // Kept with the agent, so a restart still knows it.
  expect(await t.db.rows(sql`SELECT last_address FROM agents`)).toEqual([{ last_address: "203.0.113.7" }]);

  at(100);
  await report();
  await t.sendAt(110);
  expect(messages()[1].title).toBe("🟢 Agent back online: db-1");
  expect(messages()[1].lines).toContain("Down for: 1m 40s");
});
