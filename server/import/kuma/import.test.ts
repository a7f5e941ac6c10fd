import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../../db/database";
import { testDb } from "../../db/test-db";
import type { MonitorFields } from "../../monitors/field-rules";
import { createMonitorStore } from "../../monitors/store";
import { testApp } from "../../test-support";
import { applyImport, importedIds, planImport, readKumaSource } from "./index";
import { monitorsSection } from "./monitors";
import type { KumaSection } from "./section";
import { fixtureCopy, kuma123, kumaBackup, manifest, removeTempDirs, tempDir, type ManifestMonitor } from "./test-fixture";

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  removeTempDirs();
});

async function setup(dir = fixtureCopy()) {
  const db = await testDb();
  open.push(db);
  const source = await readKumaSource(dir);
  open.push(source);
  return { db, source, dir };
}

/** Every monitor in Vigil's database, by id, as the monitor service reads them. */
async function monitorsIn(db: Db): Promise<Map<number, MonitorFields>> {
  const store = createMonitorStore(db);
  await store.load();
  return new Map(store.all().map((e) => [e.id, e.fields]));
}

const SUPPORTED: Record<string, string> = {
  http: "http", keyword: "http", "json-query": "http", port: "tcp", ping: "ping", dns: "dns", push: "push", group: "group",
  postgres: "postgres", mysql: "mysql", redis: "redis", mongodb: "mongodb", "grpc-keyword": "grpc", mqtt: "mqtt",
  "websocket-upgrade": "websocket", smtp: "smtp", snmp: "snmp", ntp: "ntp", docker: "docker", "real-browser": "browser", manual: "manual",
};
/** The secrets the sample was given (manifest settings): never in a plan's notes. */
const SECRET_KEYS = ["databaseConnectionString", "mqttPassword", "radiusPassword", "basic_auth_pass", "bearer_token"];
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

/** What the manifest says Kuma was given for this monitor, as Vigil fields. */
function expectedFields(m: ManifestMonitor, parentId: number | null): Partial<MonitorFields> {
  const s = m.settings_set as Record<string, unknown>;
  const fields: Partial<MonitorFields> = {
    name: m.name,
    type: SUPPORTED[m.type] as MonitorFields["type"],
    intervalSeconds: m.interval,
    retries: m.maxretries,
    active: !m.paused,
    upsideDown: m.upside_down,
    parentId,
    tags: m.tags.map((t) => (t.value ? `${t.name}:${t.value}` : t.name)),
  };
  // A timeout not shorter than the interval or the retry interval is fitted to 80 % of the shorter (with a note).
  const shortest = Math.min(m.interval, m.retry_interval || m.interval);
  if (m.type !== "group") fields.timeout = m.timeout < shortest ? m.timeout : Math.round(shortest * 8) / 10;
  if (["http", "keyword", "json-query"].includes(m.type)) {
    const headers = Object.entries(JSON.parse((s.headers as string | undefined) ?? "{}") as Record<string, string>).map(([name, value]) => ({ name, value }));
    if (s.body) headers.push({ name: "Content-Type", value: "application/json" });
    if (s.authMethod === "basic") headers.push({ name: "Authorization", value: basic(String(s.basic_auth_user), String(s.basic_auth_pass)) });
    Object.assign(fields, {
      url: s.url,
      method: (s.method as string | undefined) ?? "GET",
      headers,
      ignoreTls: s.ignoreTls === true,
      followRedirects: s.maxredirects !== 0,
    });
  }
  if (m.type === "keyword") Object.assign(fields, { keyword: s.keyword, keywordInvert: s.invertKeyword === true, keywordCaseSensitive: true });
  if (m.type === "port") Object.assign(fields, { host: s.hostname, port: Number(s.port) });
  if (m.type === "ping") Object.assign(fields, { host: s.hostname, pingCount: s.ping_count });
  if (m.type === "dns") Object.assign(fields, { host: s.hostname, dnsRecordType: s.dns_resolve_type, dnsResolver: `${s.dns_resolve_server}:${s.port}` });
  if (m.type === "push") Object.assign(fields, { pushToken: m.push_token, pushGrace: 0 });
  const settings = expectedSettings(m);
  if (settings) fields.settings = settings;
  return fields;
}

/** The settings object the manifest's Kuma settings make for the later types (their settings.ts field names). */
function expectedSettings(m: ManifestMonitor): Record<string, unknown> | undefined {
  const s = m.settings_set as Record<string, unknown>;
  const url = () => new URL(String(s.databaseConnectionString));
  switch (m.type) {
    case "postgres":
    case "mysql": {
      const u = url();
      const query = (s.databaseQuery as string | undefined) ?? "SELECT 1";
      return { host: u.hostname, port: Number(u.port), database: u.pathname.slice(1), username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), tls: "disable", query };
    }
    case "redis": {
      const u = url();
      return { host: u.hostname, port: Number(u.port), username: "", password: decodeURIComponent(u.password), tls: u.protocol === "rediss:", ignoreTls: s.ignoreTls === true, database: 0, command: "PING" };
    }
    case "mongodb":
      return { connectionString: s.databaseConnectionString, database: url().pathname.slice(1), command: s.databaseQuery, expected: "" };
    case "grpc-keyword": {
      const [host, port] = String(s.grpcUrl).split(":");
      return { host, port: Number(port), service: (JSON.parse(String(s.grpcBody)) as { service: string }).service, tls: s.grpcEnableTls === true, metadata: [] };
    }
    case "mqtt":
      return { protocol: "mqtt", host: String(s.hostname).replace(/^mqtt:\/\//, ""), port: s.port, username: s.mqttUsername, password: s.mqttPassword, topic: s.mqttTopic, keyword: s.mqttSuccessMessage, jsonPath: "" };
    case "websocket-upgrade":
      return { url: s.url, headers: [], subprotocol: "", message: "", keyword: "" };
    case "smtp":
      return { host: s.hostname, port: s.port, security: { secure: "tls", starttls: "starttls", nostarttls: "none" }[String(s.smtpSecurity)] };
    case "snmp":
      return { host: s.hostname, port: Number(s.port), version: `v${String(s.snmpVersion)}`, community: s.radiusPassword, oid: s.snmpOid, operator: s.jsonPathOperator, expected: s.expectedValue };
    case "docker": {
      const daemon = new URL(m.docker_host!.daemon.replace(/^tcp:/, "http:"));
      return { container: s.docker_container, endpoint: "tcp", host: daemon.hostname, port: Number(daemon.port), tls: daemon.protocol === "https:" };
    }
    case "real-browser":
      return { url: s.url, selector: "", keyword: "", steps: [] };
    case "manual":
      return {};
  }
  return undefined;
}

/** How many of the sample's monitors are of a type Vigil has. */
const supportedCount = () => Object.entries(manifest().counts.monitor_types).reduce((n, [type, count]) => n + (SUPPORTED[type] ? count : 0), 0);

describe("the monitors of the sample Kuma 2.5.3 database", () => {
  test("every monitor of a type Vigil has is created with its settings; the others are skipped, saying why", async () => {
    const { db, source } = await setup();
    const plan = await applyImport(db, source, { history: false });
    const expected = manifest();
    const monitorItems = plan.items.filter((i) => i.kind === "monitor");
    expect(monitorItems).toHaveLength(expected.counts.monitors);

    expect(monitorItems.filter((i) => i.action === "create")).toHaveLength(supportedCount());
    const monitors = await monitorsIn(db);
    expect(monitors.size).toBe(supportedCount());

    const ids = await importedIds(db, "monitor");
    for (const m of expected.monitors) {
      const item = monitorItems.find((i) => i.sourceId === String(m.id))!;
      if (!SUPPORTED[m.type]) {
        expect({ id: m.id, action: item.action, reason: item.notes[0] }).toEqual({ id: m.id, action: "skip", reason: { code: "monitor.noCheck", values: { type: m.type }, text: `Vigil has no ${m.type} check yet.` } });
        expect(ids.has(String(m.id))).toBe(false);
        continue;
      }
      const fields = monitors.get(ids.get(String(m.id))!)!;
      const parentId = m.parent_id === null ? null : ids.get(String(m.parent_id))!;
      expect({ id: m.id, ...fields }).toMatchObject({ id: m.id, ...expectedFields(m, parentId) });
      // The retry interval as it acts: null is "the interval".
      expect({ id: m.id, retry: fields.retryIntervalSeconds ?? fields.intervalSeconds }).toEqual({ id: m.id, retry: m.retry_interval });
      // Kuma keeps a JSON body as its editor reformatted it: the same JSON.
      const body = (m.settings_set as { body?: string }).body;
      expect({ id: m.id, body: fields.body === null ? null : JSON.parse(fields.body) }).toEqual({ id: m.id, body: body === undefined ? null : JSON.parse(body) });
      const codes = m.accepted_statuscodes.join(",");
      if (fields.type === "http") expect({ id: m.id, status: fields.expectedStatus }).toEqual({ id: m.id, status: codes === "200-299" ? "200-299" : codes });
    }
    // JSON queries as Vigil's assertions, with the operator and expected value.
    const byName = (name: string) => [...monitors.values()].find((f) => f.name === name)!;
    expect(byName("Orders API health JSON").jsonPath).toBe('$.status == "ok"');
    expect(byName("Queue depth < 500").jsonPath).toBe("$.queue.depth < 500");
    // What does not come across is said on the item.
    const note = (name: string) => monitorItems.find((i) => i.name === name)!.notes.map((n) => n.text).join(" ");
    expect(note("CDN origin via proxy")).toContain("proxy");
    expect(note("Shop homepage")).toContain("description");
    expect(note("Checkout page (browser)")).toBe('Kuma ran it in the remote browser "browserless-local"; Vigil runs it in its own Chromium.');
    // No secret Kuma was given is in any note (the remote browser's URL carries a token too).
    const notes = JSON.stringify(plan.items.map((i) => i.notes));
    const secrets = expected.monitors.flatMap((m) => SECRET_KEYS.map((k) => (m.settings_set as Record<string, unknown>)[k])).filter((v): v is string => typeof v === "string" && v !== "");
    for (const m of expected.monitors) if (m.remote_browser) secrets.push(m.remote_browser.url);
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect({ secret, inNotes: notes.includes(secret) }).toEqual({ secret, inNotes: false });
  });

  test("importing again updates the same monitors (no duplicates); a name changed in Kuma is updated", async () => {
    const { db, source, dir } = await setup();
    await applyImport(db, source, { history: false });
    const first = await importedIds(db, "monitor");
    const count = (await monitorsIn(db)).size;

    const replan = await planImport(db, source, { history: false });
    expect(new Set(replan.items.filter((i) => i.action !== "skip").map((i) => i.action))).toEqual(new Set(["update"]));

    const kuma = new Database(join(dir, "kuma.db"));
    kuma.run("UPDATE monitor SET name = 'Shop homepage (renamed)' WHERE id = 4");
    kuma.close();
    const edited = await readKumaSource(dir);
    open.push(edited);
    await applyImport(db, edited, { history: false });
    expect(await importedIds(db, "monitor")).toEqual(first);
    const monitors = await monitorsIn(db);
    expect(monitors.size).toBe(count);
    expect(monitors.get(first.get("4")!)!.name).toBe("Shop homepage (renamed)");
    expect(monitors.get(first.get("4")!)!.parentId).toBe(first.get("1")!);
  });

  test("one transaction: a later section failing leaves nothing imported", async () => {
    const { db, source } = await setup();
    const failing: KumaSection = {
      kind: "setting",
      plan: async () => [{ kind: "setting", sourceId: "x", name: "x", action: "create", notes: [] }],
      apply: async () => {
        throw new Error("the disk is full");
      },
    };
    await expect(applyImport(db, source, { history: false }, { sections: [monitorsSection, failing] })).rejects.toThrow("the disk is full");
    expect((await monitorsIn(db)).size).toBe(0);
    expect((await importedIds(db, "monitor")).size).toBe(0);
    // And it can be imported afterwards, whole.
    await applyImport(db, source, { history: false });
    expect((await importedIds(db, "monitor")).size).toBe(supportedCount());
  });

  test("the push monitor keeps its token: Kuma's push URL works against Vigil after the import", async () => {
    const { db, source } = await setup();
    await applyImport(db, source, { history: false });
    const t = await testApp({ db });
    const token = "mZBS3F34DExhXMifrwfBkp4UBHZ2Znhw";
    // Kuma's own URL ends in `ping=` (empty) until the job fills it in.
    const up = await t.call("GET", `/api/push/${token}?status=up&msg=OK&ping=`);
    expect(up.status).toBe(200);
    await Bun.sleep(1100); // pushes closer than a second apart are refused
    const down = await t.call("GET", `/api/push/${token}?status=down&msg=pg_dump%20failed&ping=42`);
    expect(down.status).toBe(200);
    const id = (await importedIds(db, "monitor")).get("21")!;
    const seen = t.services.monitors.get(id)!;
    expect(seen).toMatchObject({ type: "push", name: "Nightly backup job (push)", pushToken: token, lastError: expect.stringContaining("pg_dump failed") });
    expect((await t.call("GET", "/api/push/not-a-token-of-anyone?status=up")).status).toBe(404);
  });

  test("a running server sees the imported monitors once its monitor service re-reads them (resync)", async () => {
    const { db, source } = await setup();
    const t = await testApp({ db });
    await applyImport(db, source, { history: false });
    expect(t.services.monitors.store.size).toBe(0);
    await t.services.monitors.resync();
    const ids = await importedIds(db, "monitor");
    expect(t.services.monitors.store.size).toBe(supportedCount());
    const shop = ids.get("4")!;
    expect(t.services.monitors.get(shop)).toMatchObject({ name: "Shop homepage", url: "http://127.0.0.1:18080/health" });
    expect(t.services.monitors.scheduler.has(shop)).toBe(true);
    // Paused in Kuma, paused here: not scheduled.
    const paused = [...(await monitorsIn(db)).entries()].filter(([, f]) => !f.active).map(([id]) => id);
    for (const id of paused) expect(t.services.monitors.scheduler.has(id)).toBe(false);
  });

  test("Kuma's tag colours come across for tag names without a colour in Vigil; one chosen in Vigil is kept", async () => {
    const { db, source } = await setup();
    await db.orm.insert(db.t.tagStyles).values({ name: "Team", color: "#000000" });
    await applyImport(db, source, { history: false });
    await applyImport(db, source, { history: false });
    const styles = new Map((await db.orm.select().from(db.t.tagStyles)).map((r) => [r.name.toLowerCase(), r.color]));
    const kumaTags = new Map<string, string>();
    for (const m of manifest().monitors) for (const tag of m.tags as { name: string; color: string }[]) kumaTags.set(tag.name.toLowerCase(), tag.color.toLowerCase());
    expect(kumaTags.get("env")).toBeDefined();
    expect(styles.get("env")).toBe(kumaTags.get("env")!);
    expect(styles.get("team")).toBe("#000000");
  });

  test("with private targets blocked (as the instance is run), monitors of local addresses are skipped with the reason", async () => {
    const { db, source } = await setup();
    const plan = await planImport(db, source, { history: false, targets: { allowPrivate: false } });
    const shop = plan.items.find((i) => i.name === "Shop homepage")!;
    expect(shop.action).toBe("skip");
    expect(shop.notes[0]!.text).toStartWith("Vigil refuses it:");
    expect(plan.items.find((i) => i.name === "Nightly backup job (push)")!.action).toBe("create");
    // The later types judge their hosts by the same policy; a manual monitor has none.
    const postgres = plan.items.find((i) => i.name === "Orders PostgreSQL")!;
    expect(postgres).toMatchObject({ action: "skip", notes: [{ code: "monitor.refused" }] });
    expect(plan.items.find((i) => i.name === "Warehouse scanner (manual)")!.action).toBe("create");
  });

  test("a value a type's own validation refuses is skipped with its message, as the API would say it", async () => {
    const { db, dir } = await setup();
    const kuma = new Database(join(dir, "kuma.db"));
    kuma.run("UPDATE monitor SET database_connection_string = 'redis://:pw@127.0.0.1:6379/20' WHERE type = 'redis'");
    kuma.run("UPDATE monitor SET database_connection_string = 'mysql://@127.0.0.1/catalog' WHERE type = 'mysql'");
    kuma.run("UPDATE monitor SET snmp_oid = 'sysDescr' WHERE type = 'snmp'");
    kuma.run("UPDATE monitor SET database_connection_string = 'host=127.0.0.1 user=kuma password=Pg-R3ad0nly' WHERE type = 'postgres'");
    kuma.close();
    const source = await readKumaSource(dir);
    open.push(source);
    const plan = await planImport(db, source, { history: false });
    const reason = (type: string) => {
      const item = plan.items.find((i) => i.kind === "monitor" && i.sourceId === String(manifest().monitors.find((m) => m.type === type)!.id))!;
      expect(item.action).toBe("skip");
      return item.notes[0]!.text;
    };
    expect(reason("redis")).toBe("Vigil refuses it: Database must be a whole number from 0 to 15.");
    expect(reason("mysql")).toBe("Vigil refuses it: User name is required (at most 128 characters).");
    expect(reason("snmp")).toBe("Vigil refuses it: The OID must be numbers separated by dots (1.3.6.1.2.1.1.3.0).");
    // A libpq key=value string is not a URL: said without repeating it (it holds the password).
    expect(reason("postgres")).toBe("Its connection string is not one Vigil can read: it needs the form postgres://user:password@host:port/database.");
    expect(JSON.stringify(plan.items)).not.toContain("Pg-R3ad0nly");
  });
});

describe("other Kuma sources", () => {
  test("a Kuma 1.23 database: groups, keyword, tags; a push token too short for Vigil gets a new one, said in a note", async () => {
    const dir = tempDir();
    kuma123(dir);
    const { db, source } = await setup(dir);
    const plan = await applyImport(db, source, { history: false });
    expect(plan.items.map((i) => [i.name, i.action])).toEqual([["Web", "create"], ["Home", "create"], ["Backup", "create"], ["Cache", "skip"]]);
    expect(plan.items[2]!.notes.map((n) => n.text).join(" ")).toContain("push token is too short");
    // Kuma 1.23 let a Redis monitor be saved without its connection string.
    expect(plan.items[3]!.notes[0]!.code).toBe("monitor.connectionString");
    const ids = await importedIds(db, "monitor");
    const monitors = await monitorsIn(db);
    expect(monitors.get(ids.get("2")!)).toMatchObject({
      type: "http",
      url: "https://example.com/",
      keyword: "Welcome",
      keywordInvert: true,
      parentId: ids.get("1"),
      retries: 2,
      retryIntervalSeconds: 30,
      // Kuma 1.x kept 0 for "80 % of the interval"; Vigil's must also be below the 30 s retry interval.
      timeout: 24,
      tags: ["env:prod"],
    });
    expect(monitors.get(ids.get("3")!)).toMatchObject({ type: "push", active: false, pushToken: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/) });
  });

  test("a Kuma 1.x JSON backup: basic auth as a header, upside down, accepted codes", async () => {
    const dir = tempDir();
    const file = join(dir, "backup.json");
    writeFileSync(file, JSON.stringify(kumaBackup()));
    const { db, source } = await setup(file);
    await applyImport(db, source, { history: false });
    const ids = await importedIds(db, "monitor");
    const monitors = await monitorsIn(db);
    expect(monitors.get(ids.get("1")!)).toMatchObject({
      name: "Web",
      upsideDown: true,
      expectedStatus: "200-299,301",
      headers: [{ name: "Authorization", value: basic("ops", "s3cret") }],
      tags: ["env:prod"],
      intervalSeconds: 30,
      timeout: 24,
    });
    expect(monitors.get(ids.get("2")!)).toMatchObject({ type: "push", pushToken: "pushtokenpushtokenpushtoken12345", intervalSeconds: 86400, active: false });
  });
});

