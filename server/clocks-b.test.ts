// Issue 38: behaviour that runs on a clock, in the fully wired server (createServices + createApp, started through
// server/lifecycle.ts as main.ts does) on the real clock: history rollups and retention, agents' rollups, location
// results' retention, invite and sign-in challenge expiry, and the subscriber mail queue's retry. Rows "from the past"
// are written straight into its database, as a server stopped for days would find them. About a minute in all.
import { afterEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { simpleParser } from "mailparser";
import { createServices } from "./app";
import { testDb } from "./db/test-db";
import type { Db } from "./db/open";
import { startServices, stopServices } from "./lifecycle";
import { checkRows } from "./monitors/check-rows";
import { DAY, HOUR } from "./monitors/history";
import { startSmtp, stopSmtp } from "./notifications/providers/test-smtp";
import { PASSWORD, TEST_SECRET, testApp } from "./test-support";

const MINUTE = 60_000;
const cleanups: (() => unknown)[] = [];
// After each test: its server stopped (on PostgreSQL that takes a few seconds), its database closed.
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
}, 30_000);

async function until(what: string, ok: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(200);
  }
}

/** A target answering 200, for monitors that must check something. */
function target() {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  cleanups.push(() => server.stop(true));
  return `http://127.0.0.1:${server.port}/`;
}

/**
 * The wired server over a test database (`seed` writes into it before the services load it), with the options
 * main.ts passes (`--raw-retention-days` as `rawRetentionDays`). Started by start(); stopped and closed after all.
 */
async function wired({ rawRetentionDays = 7, seed }: { rawRetentionDays?: number; seed?: (db: Db) => Promise<void> } = {}) {
  const db = await testDb();
  await seed?.(db);
  const services = await createServices(db, { monitors: { rawRetentionDays } });
  const t = await testApp({ db, services });
  let started = false;
  cleanups.push(async () => {
    if (started) await stopServices(services, async () => {});
    await db.close();
  });
  const { token } = await t.signUp("admin");
  return {
    ...t,
    token,
    start: async () => {
      started = true;
      await startServices(services, { url: "http://127.0.0.1:1" });
    },
  };
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;

describe("history, on the real clock in the wired server", () => {
  test("after a start-up delay, hours closed while it was stopped are rolled up, and raw results past --raw-retention-days are pruned", async () => {
    const s = await wired({ rawRetentionDays: 1 });
    const created = await s.call<any>("POST", "/api/monitors", { token: s.token, body: { name: "Shop", url: target(), interval: 60 } });
    expect(created.status).toBe(201);
    const id = created.body.monitor.id as number;
    const { checkResults, monitorHourly, monitorDaily, settings } = s.db.t;

    // A server stopped two days ago: everything before then rolled up (its raw results kept, as retention allows).
    const now = Date.now();
    const stoppedAt = floorTo(now, HOUR) - 48 * HOUR;
    await s.db.orm.insert(settings).values([
      { key: "monitors.rollup.hourly", value: String(stoppedAt) },
      { key: "monitors.rollup.daily", value: String(floorTo(stoppedAt, DAY)) },
    ]);
    const rolled = { monitorId: id, checks: 1, up: 1, down: 0, rtSum: 80, rtCount: 1, rtMin: 80, rtMax: 80 };
    await s.db.orm.insert(monitorHourly).values([
      { ...rolled, bucketStart: stoppedAt - 10 * DAY },
      { ...rolled, bucketStart: floorTo(now - 400 * DAY, HOUR) }, // past the rollups' 365 days
    ]);
    const hourA = stoppedAt; // its first hour after the stop: rolled up, then older than a day
    const hourB = floorTo(now, HOUR) - 3 * HOUR; // rolled up, kept raw
    await s.db.orm.insert(checkResults).values([
      { monitorId: id, time: stoppedAt - 10 * DAY + 60_000, up: true, responseTime: 80 },
      { monitorId: id, time: hourA + 60_000, up: true, responseTime: 100 },
      { monitorId: id, time: hourA + 120_000, up: true, responseTime: 200 },
      { monitorId: id, time: hourA + 180_000, up: false, responseTime: null, error: "refused" },
      { monitorId: id, time: hourB + 60_000, up: true, responseTime: 50 },
    ]);
    // Every check kept, packed or not (on PostgreSQL hour B is packed by now: rolled up and over an hour old).
    const raw = async () => (await s.db.rows<{ time: number }>(sql`SELECT time FROM ${checkRows(s.db.engine, null)} WHERE monitor_id = ${id}`)).map((r) => r.time);
    const hours = async () =>
      (await s.db.orm.select().from(monitorHourly).where(eq(monitorHourly.monitorId, id))).sort((a, b) => a.bucketStart - b.bucketStart);

    const startedAt = Date.now();
    await s.start();
    // The first pass waits a few seconds (start-up stays light): nothing is rolled up or pruned at once.
    await Bun.sleep(1_000);
    expect((await hours()).length).toBe(2);
    await until("the first history pass", async () => (await hours()).some((h) => h.bucketStart === hourA), 15_000);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(4_000);
    // On PostgreSQL the pass drops hour A's day before it deletes old rollups: wait for both.
    await until("the old results and rollups to be pruned", async () => !(await raw()).includes(hourA + 60_000) && (await hours()).length === 3, 5_000);

    // Rollups past 365 days are gone, the hours closed meanwhile are there; raw results older than a day are gone
    // (rolled up), later ones stay.
    expect((await hours()).map(({ bucketStart, checks, up, down, rtSum, rtCount }) => ({ bucketStart, checks, up, down, rtSum, rtCount }))).toEqual([
      { bucketStart: stoppedAt - 10 * DAY, checks: 1, up: 1, down: 0, rtSum: 80, rtCount: 1 },
      { bucketStart: hourA, checks: 3, up: 2, down: 1, rtSum: 300, rtCount: 2 },
      { bucketStart: hourB, checks: 1, up: 1, down: 0, rtSum: 50, rtCount: 1 },
    ]);
    const left = await raw();
    expect(left.filter((t) => t < now)).toEqual([hourB + 60_000]);
    if (s.db.engine === "postgres") {
      // The same pass packed hour B (rolled up, over an hour old): its check is no longer a row of check_results.
      const rows = await s.db.orm.select({ time: checkResults.time }).from(checkResults).where(eq(checkResults.monitorId, id));
      expect(rows.map((r) => r.time)).not.toContain(hourB + 60_000);
    }
    // The day of hour A is closed: rolled up from its hours.
    const days = await s.db.orm.select().from(monitorDaily).where(eq(monitorDaily.monitorId, id));
    expect(days.map(({ bucketStart, checks, up, down }) => ({ bucketStart, checks, up, down }))).toContainEqual({ bucketStart: floorTo(hourA, DAY), checks: 3, up: 2, down: 1 });
    // What a user sees: the 7-day chart shows hour A from its rollup, though its raw results are gone.
    const series = await s.call<any>("GET", `/api/monitors/${id}/series?range=7d`, { token: s.token });
    expect(series.body.series.checks[series.body.series.times.indexOf(hourA)]).toBe(3);
    // Room for a fresh PostgreSQL schema's migrations on a loaded machine: the waits above say what was late.
  }, 90_000);
});

describe("agents and locations, on the real clock in the wired server", () => {
  test("agents' samples are rolled into minutes and hours at start-up, and samples and rollups past their retention pruned", async () => {
    const now = Date.now();
    const minute = floorTo(now, MINUTE) - 30 * MINUTE;
    let agentId = 0;
    const s = await wired({
      seed: async (db) => {
        const [agent] = await db.orm.insert(db.t.agents).values({ name: "web-1", credentialHash: "x".repeat(64), createdAt: now - 60 * DAY, updatedAt: now }).returning();
        agentId = agent!.id;
        await db.orm.insert(db.t.agentSamples).values([
          { agentId, time: minute + 5_000, values: { cpu: 10 } },
          { agentId, time: minute + 15_000, values: { cpu: 30 } },
          { agentId, time: now - 2 * DAY, values: { cpu: 99 } }, // raw samples are kept a day
        ]);
        await db.orm.insert(db.t.agentMinutely).values({ agentId, time: floorTo(now - 40 * DAY, MINUTE), avg: { cpu: 1 }, max: { cpu: 1 } }); // minutes: 30 days
        await db.orm.insert(db.t.agentHourly).values({ agentId, time: floorTo(now - 400 * DAY, HOUR), avg: { cpu: 1 }, max: { cpu: 1 } }); // hours: 365 days
      },
    });
    const { agentSamples, agentMinutely, agentHourly } = s.db.t;
    const samples = async () => s.db.orm.select().from(agentSamples).where(eq(agentSamples.agentId, agentId));
    const rollups = async (table: typeof agentMinutely | typeof agentHourly) =>
      (await s.db.orm.select().from(table).where(eq(table.agentId, agentId))).sort((a, b) => a.time - b.time);

    await s.start();
    await until("the agents' first rollup", async () => (await rollups(agentMinutely)).some((r) => r.time === minute), 10_000);
    await until("old samples to be pruned", async () => (await samples()).length === 2, 5_000);
    expect((await rollups(agentMinutely)).map(({ time, avg, max }) => ({ time, avg, max }))).toEqual([{ time: minute, avg: { cpu: 20 }, max: { cpu: 30 } }]);
    expect((await rollups(agentHourly)).map(({ time, avg }) => ({ time, avg }))).toEqual([{ time: floorTo(minute, HOUR), avg: { cpu: 20 } }]);
    // What a user sees: the 24-hour chart (minutes) shows that minute.
    const chart = await s.call<any>("GET", `/api/agents/${agentId}/series?range=24h`, { token: s.token });
    expect([chart.body.series.times, chart.body.series.avg.cpu]).toEqual([[minute], [20]]);
  }, 30_000);

  test("location results past the raw retention are pruned soon after start-up, not only an hour later", async () => {
    const s = await wired({ rawRetentionDays: 1 });
    const created = await s.call<any>("POST", "/api/monitors", { token: s.token, body: { name: "Shop", url: target(), interval: 60 } });
    const id = created.body.monitor.id as number;
    const now = Date.now();
    const { probeResults } = s.db.t;
    await s.db.orm.insert(probeResults).values([
      { monitorId: id, agentId: 0, time: now - 3 * DAY, up: true, responseTime: 40 },
      { monitorId: id, agentId: 0, time: now - HOUR, up: true, responseTime: 40 },
    ]);
    const times = async () => (await s.db.orm.select({ time: probeResults.time }).from(probeResults).where(eq(probeResults.monitorId, id))).map((r) => r.time);

    await s.start();
    await until("the old location result to be pruned", async () => !(await times()).includes(now - 3 * DAY), 15_000);
    expect(await times()).toEqual([now - HOUR]);
  }, 30_000);
});

describe("expiry, on the real clock in the wired server", () => {
  test("an invite is good until its expiry and refused after it", async () => {
    const s = await wired();
    await s.start();
    const created = await s.call<any>("POST", "/api/registration/invites", { token: s.token, body: { hours: 1 } });
    expect(created.status).toBe(201);
    const invite = created.body.token as string;
    // Its expiry brought to a few seconds from now (the shortest an admin may choose is an hour).
    const expiresAt = Date.now() + 3_000;
    await s.db.orm.update(s.db.t.invites).set({ expiresAt }).where(eq(s.db.t.invites.id, created.body.invite.id));

    expect((await s.call<any>("POST", "/api/registration/invites/check", { body: { token: invite } })).body).toMatchObject({ state: "valid", expiresAt });
    expect((await s.call<any>("GET", "/api/registration", { token: s.token })).body.invites).toHaveLength(1);
    await Bun.sleep(Math.max(0, expiresAt - Date.now()) + 500);

    expect((await s.call<any>("POST", "/api/registration/invites/check", { body: { token: invite } })).body.state).toBe("expired");
    expect((await s.call<any>("GET", "/api/registration", { token: s.token })).body.invites).toEqual([]);
    const body = { username: "late", password: PASSWORD, confirmPassword: PASSWORD, invite };
    const refused = await s.call<any>("POST", "/api/auth/register", { body });
    expect([refused.status, refused.body.code]).toEqual([403, "INVITE_INVALID"]);
  }, 20_000);

  test("a sign-in challenge lasts 5 minutes; one past its lifetime is refused", async () => {
    const s = await wired();
    await s.start();
    const setup = await s.call<any>("POST", "/api/auth/2fa/setup", { token: s.token, body: { currentPassword: PASSWORD } });
    const { createTwoFactor } = await import("./auth/two-factor/service");
    const codeNow = () => createTwoFactor(s.db).codeFor({ username: "admin" }, setup.body.secret);
    const enabled = await s.call<any>("POST", "/api/auth/2fa/enable", { token: s.token, body: { code: codeNow() } });
    expect(enabled.status).toBe(200);
    // Recovery codes complete a sign-in too (the code just used for enabling cannot be used again).
    const [first, second] = enabled.body.recoveryCodes as string[];

    const login = await s.call<any>("POST", "/api/auth/login", { body: { username: "admin", password: PASSWORD } });
    const claims = JSON.parse(Buffer.from(login.body.challenge.split(".")[1], "base64url").toString()) as { sub: string; sv: number; exp: number };
    expect(claims.exp * 1000 - Date.now()).toBeGreaterThan(290_000);
    expect(claims.exp * 1000 - Date.now()).toBeLessThanOrEqual(300_000);

    // Challenges as the server makes them, with a lifetime of 2 seconds: one is used in time, the other too late.
    const challenge = () =>
      new SignJWT({ kind: "2fa", sub: claims.sub, sv: claims.sv, jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
        .sign(new TextEncoder().encode(TEST_SECRET));
    const inTime = await challenge();
    const late = await challenge();
    const used = await s.call<any>("POST", "/api/auth/login/2fa", { body: { challenge: inTime, code: first } });
    expect(used.status).toBe(200);
    await Bun.sleep(3_500);
    const refused = await s.call<any>("POST", "/api/auth/login/2fa", { body: { challenge: late, code: second } });
    expect([refused.status, refused.body.code]).toEqual([401, "TWO_FACTOR_CHALLENGE_INVALID"]);
  }, 20_000);
});

describe("subscriber mail, on the real clock in the wired server", () => {
  test("a confirmation the mail server turns away for now goes out by itself at the first retry, about 30 s later", async () => {
    let down = true;
    const tries: number[] = [];
    const { port, arrived } = await startSmtp({
      onRcptTo(_address, _session, done) {
        tries.push(Date.now());
        done(down ? Object.assign(new Error("Try again later"), { responseCode: 451 }) : undefined);
      },
    });
    cleanups.push(stopSmtp);
    const s = await wired();
    await s.call("PUT", "/api/status/config", { token: s.token, body: { title: "Acme status", description: "", monitorIds: [], agentIds: [], announcement: null } });
    const channel = await s.call("POST", "/api/notifications/channels", {
      token: s.token,
      body: { name: "Mail", type: "smtp", config: { host: "127.0.0.1", port, security: "none", from: "Acme <status@acme.test>", to: "ops@acme.test" } },
    });
    expect(channel.status).toBe(201);
    await s.start();

    expect((await s.call("POST", "/api/status/pages/default/subscribe", { body: { email: "patient@example.com" } })).status).toBe(202);
    await until("the first attempt", () => tries.length === 1, 5_000);
    down = false;
    await until("the retry", () => arrived.length === 1, 45_000);
    expect(tries).toHaveLength(2);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(29_000);
    expect(tries[1]! - tries[0]!).toBeLessThan(40_000);
    const mail = await simpleParser(arrived[0]!.raw);
    expect(arrived[0]!.to).toEqual(["patient@example.com"]);
    expect(mail.subject).toContain("Acme status");
  }, 55_000);
});
