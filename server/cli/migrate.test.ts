// `vigil migrate`: a populated SQLite instance copied into PostgreSQL, compared table by table. Needs a PostgreSQL
// server (VIGIL_TEST_DATABASE_URL; `npm test` starts one), skipped without.
import { afterEach, describe, expect, test } from "bun:test";
import { getTableColumns, sql, type Table } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../db/database";
import { openPostgres } from "../db/postgres";
import { sqliteTables } from "../db/pg-schema";
import { openSqlite } from "../db/sqlite";
import { TEST_DATABASE_URL, testSchema } from "../db/test-db";
import { jwtSecret } from "../auth/secret-store";
import { testApp } from "../test-support";
import { copyOrder, migrateToPostgres, progressLine, sessionsLine, type TableProgress } from "./migrate";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A SQLite instance with rows in every table: booleans, JSON, nulls, composite keys, foreign keys, many results. */
async function populated(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "vigil-migrate-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "vigil.db");
  const db = openSqlite(path);
  const t = db.t;
  const o = db.orm;
  const now = Date.UTC(2026, 10, 1);
  await o.insert(t.users).values([
    { username: "admin", email: "a@example.com", passwordHash: "$argon2id$x", role: "admin", createdAt: now, updatedAt: now },
    { username: "ops", email: null, passwordHash: "$argon2id$y", role: "editor", status: "disabled", sessionVersion: 3, createdAt: now, updatedAt: now },
  ]);
  await o.insert(t.settings).values([{ key: "registration_open", value: "true" }, { key: "notifications", value: '{"enabled":true}' }]);
  await o.insert(t.monitors).values([
    { name: "api", settings: { url: "https://api.example.com/health", headers: [{ name: "X-Key", value: "k" }] }, intervalSeconds: 60, timeoutMs: 10_000, tags: ["prod", "edge"], createdAt: now, updatedAt: now, status: "up" },
    { name: "db", type: "tcp", settings: { host: "db.internal", port: 5432 }, intervalSeconds: 300, timeoutMs: 5000, active: false, createdAt: now, updatedAt: now },
    { name: "cron", type: "push", settings: { pushGrace: 60 }, pushToken: "tok_abc", intervalSeconds: 3600, timeoutMs: 5000, createdAt: now, updatedAt: now },
  ]);
  const results = Array.from({ length: 4500 }, (_, i) => ({
    monitorId: 1 + (i % 2),
    time: now + i * 60_000,
    up: i % 7 !== 0,
    responseTime: i % 7 === 0 ? null : 20 + (i % 50),
    httpStatus: i % 7 === 0 ? null : 200,
    error: i % 7 === 0 ? "timeout after 10 s" : null,
  }));
  for (let i = 0; i < results.length; i += 500) await o.insert(t.checkResults).values(results.slice(i, i + 500));
  await o.insert(t.monitorHourly).values({ monitorId: 1, bucketStart: now, checks: 60, up: 59, down: 1, rtSum: 1200, rtCount: 59, rtMin: 10, rtMax: 90 });
  await o.insert(t.monitorDaily).values({ monitorId: 1, bucketStart: now, checks: 1440, up: 1439, down: 1, rtSum: 28_000, rtCount: 1439, rtMin: null, rtMax: null });
  await o.insert(t.agents).values({ name: "web-1", credentialHash: "h1", hostname: "web-1", ips: ["10.0.0.5"], uptime: 12345.5, latest: { cpu: { usage: 12.5 } } as never, createdAt: now, updatedAt: now });
  await o.insert(t.agentTokens).values([{ tokenHash: "t1", createdBy: 1, createdAt: now, expiresAt: now + 1, usedAt: now, agentId: 1 }, { tokenHash: "t2", createdBy: null, createdAt: now, expiresAt: now + 1 }]);
  await o.insert(t.agentSamples).values({ agentId: 1, time: now, values: { cpu: 12.5, mem: 40 } });
  await o.insert(t.agentMinutely).values({ agentId: 1, time: now, avg: { cpu: 12 }, max: { cpu: 30 } });
  await o.insert(t.agentHourly).values({ agentId: 1, time: now, avg: { cpu: 11 }, max: { cpu: 50 } });
  await o.insert(t.invites).values({ tokenHash: "inv", role: "admin", createdBy: 1, createdAt: now, expiresAt: now + 1, usedAt: now, usedBy: 2 });
  await o.insert(t.notificationChannels).values({ name: "Ops Slack", type: "slack", config: { webhookUrl: "https://hooks.slack.com/services/T/B/x" }, enabled: false, createdAt: now, updatedAt: now });
  await o.insert(t.notificationOverrides).values({ targetType: "monitor", targetId: 1, settings: { enabled: false }, updatedAt: now });
  await o.insert(t.notificationAlerts).values({ targetType: "agent", targetId: 1, condition: "cpu", since: now, lastNotifiedAt: now });
  await o.insert(t.notificationMessages).values({ channelId: 1, message: { title: "down", body: "api is down" } as never, status: "sent", attempts: 1, sentAt: now, createdAt: now });
  await o.insert(t.notificationEvents).values({ channelId: 1, eventKey: "monitor:1:down:1", event: { kind: "monitor.down" } as never, createdAt: now, messageId: 1 });
  await o.insert(t.statusPage).values({ id: 1, title: "Status", description: "All of it", announcementSeverity: "info", announcementText: "Maintenance on Sunday", announcementAt: now, updatedAt: now });
  await o.insert(t.statusPageMonitors).values({ monitorId: 1, position: 0 });
  await o.insert(t.statusPageAgents).values({ agentId: 1, position: 0 });
  await o.insert(t.apiTokens).values({ userId: 1, name: "deploy", scope: "write", tokenHash: "th", prefix: "vgl_ab", createdAt: now });
  await o.insert(t.ssoIdentities).values({ issuer: "https://idp.example.com", subject: "s-1", userId: 1, createdAt: now, lastSeenAt: now });
  await db.close();
  return path;
}

/** Every row of a table, in primary-key order, as drizzle maps it (booleans, JSON, numbers). */
async function dump(db: Db, name: keyof typeof sqliteTables): Promise<unknown[]> {
  const table = db.t[name] as unknown as Table;
  const columns = Object.values(getTableColumns(table));
  const config = getTableConfig(sqliteTables[name] as SQLiteTable);
  const keys = config.primaryKeys[0]?.columns.map((c) => c.name) ?? columns.filter((c) => c.primary).map((c) => c.name);
  const orderBy = keys.map((k) => sql`${sql.identifier(k)}`);
  return db.orm.select().from(table as SQLiteTable).orderBy(...orderBy);
}

describe.skipIf(!TEST_DATABASE_URL)("vigil migrate (SQLite → PostgreSQL)", () => {
  test("copies every table row for row, keeps types, and later inserts get fresh ids", async () => {
    const path = await populated();
    const target = await testSchema();
    cleanups.push(target.drop);
    const seen: TableProgress[] = [];
    const report = await migrateToPostgres(path, target.url, (p) => seen.push(p));

    expect(report.tables.map((r) => r.table).sort()).toEqual(Object.values(sqliteTables).map((t) => getTableConfig(t as SQLiteTable).name).sort());
    expect(report.tables.find((r) => r.table === "check_results")!.rows).toBe(4500);
    expect(seen.filter((p) => p.done).length).toBe(Object.keys(sqliteTables).length);
    expect(seen.some((p) => p.table === "check_results" && !p.done && p.copied === 2000)).toBe(true);

    const source = openSqlite(path);
    const copy = await openPostgres(target.url);
    cleanups.push(() => copy.close(), () => source.close());
    for (const name of copyOrder()) expect({ name, rows: await dump(copy, name) }).toEqual({ name, rows: await dump(source, name) });

    const [user] = await copy.orm.insert(copy.t.users).values({ username: "new", passwordHash: "h", createdAt: 1, updatedAt: 1 }).returning();
    expect(user!.id).toBe(3);
  }, 30_000);

  test("refuses a target that holds any row, and copies nothing", async () => {
    const path = await populated();
    const target = await testSchema();
    cleanups.push(target.drop);
    const existing = await openPostgres(target.url);
    cleanups.push(() => existing.close());
    await existing.orm.insert(existing.t.settings).values({ key: "x", value: "y" });
    await expect(migrateToPostgres(path, target.url)).rejects.toThrow(/not empty \(settings has 1 rows\)/);
    expect(await existing.orm.select().from(existing.t.users)).toEqual([]);
  }, 30_000);

  /** A SQLite instance with one signed-in account; its data dir holds a jwt-secret file when `keepSecret`. */
  async function signedIn(keepSecret: boolean): Promise<{ path: string; token: string }> {
    const dir = mkdtempSync(join(tmpdir(), "vigil-migrate-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "vigil.db");
    const db = openSqlite(path);
    // As the server does: the secret generated into the data dir, or given by --jwt-secret (and so not kept).
    const secret = keepSecret ? await jwtSecret({ dataDir: dir }, db) : "given-by-flag-given-by-flag-given-by-flag";
    const { token } = await (await testApp({ db, jwtSecret: secret })).signUp("alice");
    await db.close();
    return { path, token };
  }

  /** The session's answer from an app on the migrated database, with the secret the server would use there. */
  async function meAfterMigrate(url: string, token: string): Promise<number> {
    const copy = await openPostgres(url);
    cleanups.push(() => copy.close());
    const secret = await jwtSecret({ dataDir: "/nonexistent" }, copy);
    return (await (await testApp({ db: copy, jwtSecret: secret })).call("GET", "/api/auth/me", { token })).status;
  }

  test("carries the session secret: a session signed on SQLite is still valid on PostgreSQL", async () => {
    const { path, token } = await signedIn(true);
    const target = await testSchema();
    cleanups.push(target.drop);
    expect((await migrateToPostgres(path, target.url)).sessionsKept).toBe(true);
    expect(await meAfterMigrate(target.url, token)).toBe(200);
  }, 30_000);

  test("without a jwt-secret file it says so, and old sessions end", async () => {
    const { path, token } = await signedIn(false);
    const target = await testSchema();
    cleanups.push(target.drop);
    expect((await migrateToPostgres(path, target.url)).sessionsKept).toBe(false);
    expect(await meAfterMigrate(target.url, token)).toBe(401);
  }, 30_000);

  test("a missing source file is a clear error", async () => {
    await expect(migrateToPostgres("/nonexistent/vigil.db", TEST_DATABASE_URL!)).rejects.toThrow("No such file: /nonexistent/vigil.db");
  });
});

describe("migrate progress", () => {
  test("foreign keys first: users before api_tokens, monitors before check_results, messages before events", () => {
    const order = copyOrder();
    const before = (a: keyof typeof sqliteTables, b: keyof typeof sqliteTables) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(b));
    before("users", "apiTokens");
    before("monitors", "checkResults");
    before("notificationMessages", "notificationEvents");
    before("agents", "agentTokens");
    expect(order.length).toBe(Object.keys(sqliteTables).length);
  });

  test("a line says rows, rate and time left; a finished one the time taken", () => {
    expect(progressLine({ table: "check_results", copied: 50_000, total: 150_000, elapsedMs: 2_000, done: false })).toBe(
      "check_results: 50,000/150,000 rows, 25,000 rows/s, 4 s left",
    );
    expect(progressLine({ table: "users", copied: 3, total: 3, elapsedMs: 500, done: true })).toBe("users: 3/3 rows in 0.5 s (6 rows/s)");
  });

  test("the closing line says whether sessions were carried over", () => {
    expect(sessionsLine(true, "/var/lib/vigil")).toContain("Sessions carried over");
    expect(sessionsLine(false, "/var/lib/vigil")).toContain("No session secret found in /var/lib/vigil: everyone will need to sign in again");
    expect(sessionsLine(false, "/var/lib/vigil")).toContain("VIGIL_JWT_SECRET");
  });
});
