// Migration 0031 (SQLite) / 0022 (PostgreSQL) moved the first five types' settings from their columns into the
// monitor's settings object: monitors written before it read back through the API with every value they had, keep
// only their own type's settings in the row, and still check. Runs on the test engine.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { migratedFrom } from "../db/old-database";
import { testApp } from "../test-support";
import type { CheckResult, PublicMonitor } from "./public";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// Something real to check: a page saying ok and a listening port.
let site: ReturnType<typeof Bun.serve>;
let listener: import("bun").TCPSocketListener<undefined>;
beforeAll(() => {
  site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("all ok") });
  listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
});
afterAll(() => {
  site.stop(true);
  listener.stop(true);
});

const COLUMNS = "name, type, interval, timeout, created_at, updated_at, url, method, expected_status, headers, body, follow_redirects, keyword, keyword_invert, keyword_case_sensitive, json_path, max_response_time, ignore_tls, fresh_connection, tls_expiry_days, host, port, dns_record_type, dns_resolver, dns_expected, push_token, push_grace, ping_count, ping_family, ping_loss_threshold, settings";
/** Monitors of each type as the columns held them (interval s, timeout ms, as since 0028), and a later type's. */
const oldMonitors = () => `INSERT INTO monitors (${COLUMNS}) VALUES
  ('shop', 'http', 60, 10000, 1, 1, 'https://shop.test/health', 'POST', '200-299', '[{"name":"X-Key","value":"k"}]', '{"a":1}', false, 'ok', true, true, '$.status == "ok"', 2000, true, true, 14, 'left.test', 81, 'MX', NULL, NULL, NULL, 60, 3, 'auto', 100, '{}'),
  ('site', 'http', 60, 5000, 1, 1, 'http://127.0.0.1:${site.port}/', 'GET', '2xx', '[]', NULL, true, 'all ok', false, false, NULL, NULL, false, false, NULL, '', NULL, 'A', NULL, NULL, NULL, 60, 3, 'auto', 100, '{}'),
  ('port', 'tcp', 60, 5000, 1, 1, '', 'GET', '2xx', '[]', NULL, true, NULL, false, false, NULL, NULL, false, false, NULL, '127.0.0.1', ${listener.port}, 'A', NULL, NULL, NULL, 60, 3, 'auto', 100, '{}'),
  ('mail', 'dns', 60, 5000, 1, 1, '', 'GET', '2xx', '[]', NULL, true, NULL, false, false, NULL, NULL, false, false, NULL, 'example.com', NULL, 'MX', '9.9.9.9', '10 mail.example.com', NULL, 60, 3, 'auto', 100, '{}'),
  ('cron', 'push', 3600, 5000, 1, 1, '', 'GET', '2xx', '[]', NULL, true, NULL, false, false, NULL, NULL, false, false, NULL, '', NULL, 'A', NULL, NULL, 'tok_abc', 120, 3, 'auto', 100, '{}'),
  ('gw', 'ping', 60, 5000, 1, 1, '', 'GET', '2xx', '[]', NULL, true, NULL, false, false, NULL, 300, false, false, NULL, '10.0.0.1', NULL, 'A', NULL, NULL, NULL, 60, 5, 'ipv4', 50, '{}'),
  ('cache', 'redis', 60, 5000, 1, 1, '', 'GET', '2xx', '[]', NULL, true, NULL, false, false, NULL, NULL, false, false, NULL, '', NULL, 'A', NULL, NULL, NULL, 60, 3, 'auto', 100, '{"host":"cache.test","port":6380}')`;

/** A database at the schema before the move, holding oldMonitors(), opened (and so migrated) by today's code. */
const migrated = (): Promise<Db> => migratedFrom({ sqliteTag: "0031", pgTag: "0022" }, oldMonitors(), cleanups);

test("monitors of the first five types keep every setting through the move into their settings object, and still check", async () => {
  const db = await migrated();
  cleanups.push(() => db.close());
  const t = await testApp({ db });
  const admin = await t.signUp("alice");
  const list = (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: admin.token })).body.monitors;
  const by = Object.fromEntries(list.map((m) => [m.name, m]));
  expect(by.shop).toMatchObject({
    url: "https://shop.test/health", method: "POST", expectedStatus: "200-299", headers: [{ name: "X-Key", value: "k" }], body: '{"a":1}',
    followRedirects: false, keyword: "ok", keywordInvert: true, keywordCaseSensitive: true, jsonPath: '$.status == "ok"', maxResponseTime: 2000,
    ignoreTls: true, freshConnection: true, tlsExpiryDays: 14, settings: {},
    // Another type's columns it held are not its settings: they read as the defaults.
    host: "", port: null, dnsRecordType: "A",
  });
  expect(by.port).toMatchObject({ host: "127.0.0.1", port: listener.port, url: "", target: `127.0.0.1:${listener.port}`, settings: {} });
  expect(by.mail).toMatchObject({ host: "example.com", dnsRecordType: "MX", dnsResolver: "9.9.9.9", dnsExpected: "10 mail.example.com" });
  expect(by.cron).toMatchObject({ pushToken: "tok_abc", pushGrace: 120, intervalSeconds: 3600 });
  expect(by.gw).toMatchObject({ host: "10.0.0.1", pingCount: 5, pingFamily: "ipv4", pingLossThreshold: 50, maxResponseTime: 300 });
  expect(by.cache).toMatchObject({ settings: { host: "cache.test", port: 6380 } });

  // The row holds the monitor's own type's settings only, under the API's names; a later type's are untouched.
  const rows = await db.rows<{ name: string; settings: string | Record<string, unknown> }>(sql`SELECT name, settings FROM monitors`);
  const stored = Object.fromEntries(rows.map((r) => [r.name, typeof r.settings === "string" ? JSON.parse(r.settings) : r.settings]));
  expect(stored.port).toEqual({ host: "127.0.0.1", port: listener.port });
  expect(stored.cron).toEqual({ pushGrace: 120 });
  expect(stored.mail).toEqual({ host: "example.com", dnsRecordType: "MX", dnsResolver: "9.9.9.9", dnsExpected: "10 mail.example.com" });
  expect(stored.gw).toEqual({ host: "10.0.0.1", pingCount: 5, pingFamily: "ipv4", pingLossThreshold: 50, maxResponseTime: 300 });
  expect(Object.keys(stored.shop).sort()).toEqual(
    ["url", "method", "expectedStatus", "headers", "body", "followRedirects", "keyword", "keywordInvert", "keywordCaseSensitive", "jsonPath", "maxResponseTime", "ignoreTls", "freshConnection", "tlsExpiryDays"].sort(),
  );
  expect(stored.shop).toMatchObject({ followRedirects: false, keywordInvert: true, headers: [{ name: "X-Key", value: "k" }], tlsExpiryDays: 14 });
  expect(stored.cache).toEqual({ host: "cache.test", port: 6380 });

  // They still check: the page and the port are up, the push token still takes calls.
  for (const name of ["site", "port"]) {
    const check = await t.call<{ result: CheckResult }>("POST", `/api/monitors/${by[name]!.id}/check`, { token: admin.token });
    expect({ name, status: check.body.result.status, error: check.body.result.error }).toEqual({ name, status: "up", error: null });
  }
  expect((await t.call("GET", "/api/push/tok_abc")).status).toBe(200);

  // An old client's PUT of the whole monitor keeps every value.
  const put = await t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${by.shop!.id}`, { token: admin.token, body: { ...by.shop, name: "shop 2" } });
  expect(put.status).toBe(200);
  expect(put.body.monitor).toMatchObject({ name: "shop 2", url: "https://shop.test/health", method: "POST", keyword: "ok", tlsExpiryDays: 14, headers: [{ name: "X-Key", value: "k" }] });
}, 30_000);
