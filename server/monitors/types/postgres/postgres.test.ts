// The postgres check against a real PostgreSQL server, started here on a free port with password (SCRAM) logins.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "@sinclair/typebox";
import type { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE } from "../../../net/targets";
import { closedPort, selfSignedCert } from "../../test-target";
import { checkContext, schemaMessage, serverDir, silentServer } from "../sql-test-support";
import { postgresType } from "./postgres";
import { postgresSettings } from "./settings";

const PASSWORD = "pw-s3cret-Zq9";
const bindir = (() => {
  try {
    const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
    return versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => Bun.file(join(d, "initdb")).size > 0) ?? null;
  } catch {
    return null;
  }
})();
const missing = !bindir && !process.env.CI;

let dir = "";
let port = 0;
const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
const postgresUid = () => Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
const run = (args: string[]) => spawnSync(asPostgres[0] ?? args[0]!, [...asPostgres.slice(1), ...(asPostgres.length ? args : args.slice(1))], { encoding: "utf8" });

beforeAll(() => {
  if (missing) return;
  if (!bindir) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  dir = serverDir("vigil-pg-check-");
  writeFileSync(join(dir, "pw"), PASSWORD);
  if (asPostgres.length) {
    const uid = postgresUid();
    chownSync(dir, uid, uid);
    chownSync(join(dir, "pw"), uid, uid);
  }
  const init = run([join(bindir, "initdb"), "-D", join(dir, "data"), "-A", "scram-sha-256", "-U", "postgres", `--pwfile=${join(dir, "pw")}`, "--no-sync"]);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  port = closedPort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = run([join(bindir, "pg_ctl"), "-D", join(dir, "data"), "-l", join(dir, "log"), "-w", "-o", opts, "start"]);
  if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr}`);
}, 60_000);

afterAll(() => {
  if (!dir) return;
  run([join(bindir!, "pg_ctl"), "-D", join(dir, "data"), "-m", "immediate", "stop"]);
  rmSync(dir, { recursive: true, force: true });
});

type Settings = Static<typeof postgresSettings>;
const settings = (over: Partial<Settings> = {}): Settings => ({
  host: "127.0.0.1",
  port,
  database: "postgres",
  username: "postgres",
  password: PASSWORD,
  tls: "disable",
  query: "SELECT 1",
  column: "",
  operator: "==",
  expected: "",
  ...over,
});
const check = (over: Partial<Settings> = {}, timeoutMs = 5000, ctx = {}) => postgresType.check(settings(over), checkContext(timeoutMs, ctx));
const resolveLocal = async (host: string) => (host === "db.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));
/** The server's other sessions from Vigil (the connection asking is left out). */
const vigilSessions = async () =>
  check({ query: "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'Vigil' AND pid <> pg_backend_pid()", expected: "0" });

describe.skipIf(missing)("postgres check against a real server", () => {
  test("up: SELECT 1 answers, with its time; the connection is closed after", async () => {
    const r = await check();
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(3000);
    expect(await vigilSessions()).toMatchObject({ up: true });
  });

  test("a host name is resolved and judged, then connected to; an empty database is the user's", async () => {
    expect(await check({ host: "db.test", database: "" }, 5000, { resolve: resolveLocal })).toMatchObject({ up: true });
  });

  test("the first value, or a named column, compared as text or as a number", async () => {
    const query = "SELECT 'ok' AS status, 42 AS n, NULL AS nothing";
    expect(await check({ query, expected: "ok" })).toMatchObject({ up: true });
    expect(await check({ query, column: "n", operator: ">=", expected: "42" })).toMatchObject({ up: true });
    expect(await check({ query, operator: "contains", expected: "k" })).toMatchObject({ up: true });
    expect(await check({ query, column: "n", operator: "<", expected: "10" })).toMatchObject({ up: false, error: 'expected value < 10, got "42"' });
    expect(await check({ query, expected: "fine" })).toMatchObject({ up: false, error: 'expected value == "fine", got "ok"' });
    expect(await check({ query, column: "nothing", expected: "x" })).toMatchObject({ up: false, error: 'expected value == "x", got null' });
    expect(await check({ query, column: "missing", expected: "x" })).toMatchObject({ up: false, error: 'query failed: no column "missing" in the result' });
    const r = await check({ query, expected: "fine" });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
  });

  test("several statements: the last one that returns rows is asserted", async () => {
    expect(await check({ query: "SET search_path = public; SELECT 5 AS five; COMMIT", operator: ">", expected: "4" })).toMatchObject({ up: true });
  });

  test("0 rows with an expectation: query returned 0 rows; without one the check is up", async () => {
    expect(await check({ query: "SELECT 1 WHERE false", expected: "1" })).toMatchObject({ up: false, error: "query returned 0 rows" });
    expect(await check({ query: "SELECT 1 WHERE false" })).toMatchObject({ up: true });
  });

  test("a failing query: query failed, with the server's words", async () => {
    expect(await check({ query: "SELECT * FROM no_such_table" })).toMatchObject({ up: false, error: 'query failed: relation "no_such_table" does not exist' });
  });

  test("a transaction the query opens does not outlive the check", async () => {
    expect(await check({ query: "BEGIN" })).toMatchObject({ up: true });
    expect(await vigilSessions()).toMatchObject({ up: true });
  });

  test("wrong password, unknown user, unknown database", async () => {
    expect(await check({ password: "wrong-password" })).toMatchObject({ up: false, error: "authentication failed" });
    expect(await check({ username: "nobody" })).toMatchObject({ up: false, error: "authentication failed" });
    expect(await check({ database: "nodb" })).toMatchObject({ up: false, error: 'PostgreSQL error: database "nodb" does not exist' });
  });

  test("an empty password stays empty: Vigil's environment (PGPASSWORD) is never sent", async () => {
    process.env.PGPASSWORD = PASSWORD;
    try {
      expect(await check({ password: "" })).toMatchObject({ up: false, error: "authentication failed" });
    } finally {
      delete process.env.PGPASSWORD;
    }
  });

  test("secrets never reach the error", async () => {
    const r = await check({ query: `SELECT * FROM "${PASSWORD}"` });
    expect(r.error).toBe('query failed: relation "••••••••" does not exist');
    expect(JSON.stringify(await check({ password: `${PASSWORD}-wrong` }))).not.toContain(PASSWORD);
  });

  test("TLS required of a server without TLS: said plainly", async () => {
    expect(await check({ tls: "require" })).toMatchObject({ up: false, error: "PostgreSQL error: the server does not offer TLS" });
  });

  test("nothing listening: connection refused", async () => {
    expect(await check({ port: closedPort() })).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
  });

  test("a server that never answers: the timeout, on time, and the socket closed", async () => {
    const silent = await silentServer();
    try {
      const started = performance.now();
      const r = await check({ port: silent.port }, 400);
      const took = performance.now() - started;
      expect(r).toMatchObject({ up: false, responseTime: null, error: "timeout after 0.4 s" });
      expect(took).toBeGreaterThanOrEqual(380);
      expect(took).toBeLessThan(900);
      await Bun.sleep(50);
      expect(silent.accepted()).toBe(1);
      expect(silent.closed()).toBe(1);
    } finally {
      silent.stop();
    }
  });

  test("a slow query: the timeout, and the server stops it too (statement timeout)", async () => {
    const r = await check({ query: "SELECT pg_sleep(5)" }, 500);
    expect(r).toMatchObject({ up: false, error: "timeout after 0.5 s" });
    await Bun.sleep(300);
    expect(await check({ query: "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)'", expected: "0" })).toMatchObject({ up: true });
  });

  test("a stopped check is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await check({}, 5000, { signal: controller.signal })).toMatchObject({ up: false, error: "check cancelled" });
  });

  test("the address policy refuses before connecting, also behind a name", async () => {
    const silent = await silentServer();
    try {
      const strict = { allowPrivate: false };
      expect((await check({ port: silent.port }, 2000, { policy: strict })).error).toStartWith("Target refused: 127.0.0.1 is a private or local address");
      expect((await check({ host: "db.test", port: silent.port }, 2000, { policy: strict, resolve: resolveLocal })).error).toStartWith("Target refused: db.test resolves to 127.0.0.1");
      expect((await check({ host: "169.254.169.254" })).error).toStartWith("Target refused: 169.254.169.254 is a link-local");
      await Bun.sleep(50);
      expect(silent.accepted()).toBe(0);
    } finally {
      silent.stop();
    }
  });
});

// Last: it turns TLS on for the rest of the run (ALTER SYSTEM and a reload; the tests above need it off).
describe.skipIf(missing)("postgres check with TLS", () => {
  test("require encrypts without checking the certificate; verify refuses a self-signed one", async () => {
    const cert = selfSignedCert();
    if (!cert) throw new Error("openssl is needed for this test");
    for (const [name, text] of [["server.crt", cert.cert], ["server.key", cert.key]] as const) {
      const file = join(dir, "data", name);
      writeFileSync(file, text);
      chmodSync(file, 0o600);
      if (asPostgres.length) chownSync(file, postgresUid(), postgresUid());
    }
    expect(await check({ query: "ALTER SYSTEM SET ssl = on" })).toMatchObject({ up: true });
    expect(await check({ query: "SELECT pg_reload_conf()" })).toMatchObject({ up: true });
    await Bun.sleep(300);
    const used = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()";
    expect(await check({ tls: "require", query: used, expected: "true" })).toMatchObject({ up: true });
    expect(await check({ tls: "disable", query: used, expected: "false" })).toMatchObject({ up: true });
    expect(await check({ tls: "verify" })).toMatchObject({ up: false, error: "TLS error: self-signed certificate" });
  });
});

describe("postgres settings", () => {
  const codeOf = (over: Partial<Settings>) => {
    try {
      postgresType.normalise!(settings(over), ALLOW_PRIVATE);
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults: port 5432, SELECT 1, no TLS, no expectation; a user name is required", () => {
    expect(schemaMessage(postgresSettings, { host: "db", username: "app" })).toBeNull();
    expect(schemaMessage(postgresSettings, { host: "db" })).toBe("User name is required (at most 128 characters)");
  });

  test("each bad field has its message", () => {
    const ok = { host: "db", username: "app" };
    expect(schemaMessage(postgresSettings, { ...ok, host: "" })).toStartWith("Host must be a host name");
    expect(schemaMessage(postgresSettings, { ...ok, port: 70000 })).toBe("Port must be a whole number from 1 to 65535");
    expect(schemaMessage(postgresSettings, { ...ok, tls: "prefer" })).toBe("TLS must be disable, require or verify");
    expect(schemaMessage(postgresSettings, { ...ok, query: "" })).toBe("Query is required (at most 10 000 characters)");
    expect(schemaMessage(postgresSettings, { ...ok, operator: "=~" })).toBe("Operator must be one of == != contains < > <= >=");
    expect(schemaMessage(postgresSettings, { ...ok, password: "x".repeat(1025) })).toBe("Password must be at most 1024 characters");
  });

  test("normalise: the host as tcp takes it, the policy as written, numbers for numeric operators", () => {
    expect(postgresType.normalise!(settings({ host: " DB.Example.com. ", column: " n " }), ALLOW_PRIVATE)).toMatchObject({ host: "db.example.com", column: "n" });
    expect(postgresType.normalise!(settings({ host: "127.1" }), ALLOW_PRIVATE).host).toBe("127.0.0.1");
    expect(codeOf({ host: "db:5432" })).toBe("INVALID_HOST");
    expect(codeOf({ host: "postgres://db" })).toBe("INVALID_HOST");
    expect(codeOf({ host: "169.254.169.254" })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ operator: ">", expected: "many" })).toBe("INVALID_EXPECTED");
    expect(codeOf({ operator: ">", expected: "1.5" })).toBeNull();
  });

  test("the target: host:port/database, never a secret", () => {
    expect(postgresType.target(settings({ host: "db.example.com", port: 5432, database: "app" }))).toBe("db.example.com:5432/app");
    expect(postgresType.target(settings({ host: "::1", port: 5433, database: "" }))).toBe("[::1]:5433");
    expect(postgresType.target(settings())).not.toContain(PASSWORD);
  });
});
