// The mysql check against a real MariaDB server, started here on a free port with a password-protected account.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync, type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "@sinclair/typebox";
import type { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE } from "../../../net/targets";
import { closedPort } from "../../test-target";
import { checkContext, schemaMessage, serverDir, silentServer } from "../sql-test-support";
import { mysqlType } from "./mysql";
import { mysqlSettings } from "./settings";

const PASSWORD = "pw-s3cret-Zq9";
const MARIADBD = ["/usr/sbin/mariadbd", "/usr/sbin/mysqld"].find((p) => existsSync(p)) ?? null;
const missing = !MARIADBD && !process.env.CI;

let dir = "";
let port = 0;
let server: ChildProcess | undefined;

/** Waits until the server takes connections (the port answers). */
async function ready(timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server?.exitCode != null) throw new Error(`mariadbd exited: ${Bun.file(join(dir, "error.log")).size ? await Bun.file(join(dir, "error.log")).text() : ""}`);
    const open = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (open) return;
    await Bun.sleep(100);
  }
  throw new Error("mariadbd did not start");
}

beforeAll(async () => {
  if (missing) return;
  if (!MARIADBD) throw new Error("MariaDB is not installed (apt-get install mariadb-server)");
  dir = serverDir("vigil-mysql-check-");
  const common = ["--no-defaults", `--datadir=${join(dir, "data")}`, "--user=root", "--innodb-log-file-size=8M", "--skip-name-resolve"];
  const init = spawnSync("mariadb-install-db", [...common, "--auth-root-authentication-method=normal", "--skip-test-db"], { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stdout}${init.stderr}`);
  // The account the checks log in with, and a table to read.
  writeFileSync(
    join(dir, "init.sql"),
    `CREATE USER 'vigil'@'%' IDENTIFIED BY '${PASSWORD}';
     GRANT SELECT, PROCESS ON *.* TO 'vigil'@'%';
     CREATE DATABASE app;
     CREATE TABLE app.jobs (id INT PRIMARY KEY, state VARCHAR(20));
     INSERT INTO app.jobs VALUES (1, 'done'), (2, 'queued');\n`,
  );
  port = closedPort();
  server = spawn(MARIADBD, [
    ...common,
    `--port=${port}`,
    "--bind-address=127.0.0.1",
    `--socket=${join(dir, "mysqld.sock")}`,
    `--pid-file=${join(dir, "mysqld.pid")}`,
    `--log-error=${join(dir, "error.log")}`,
    `--init-file=${join(dir, "init.sql")}`,
    "--skip-log-bin",
    "--innodb-buffer-pool-size=32M",
  ], { stdio: "ignore" });
  await ready(30_000);
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode == null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await Promise.race([exited, Bun.sleep(10_000)]);
    if (server.exitCode == null) server.kill("SIGKILL");
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 20_000);

type Settings = Static<typeof mysqlSettings>;
const settings = (over: Partial<Settings> = {}): Settings => ({
  host: "127.0.0.1",
  port,
  database: "app",
  username: "vigil",
  password: PASSWORD,
  tls: "disable",
  query: "SELECT 1",
  column: "",
  operator: "==",
  expected: "",
  ...over,
});
const check = (over: Partial<Settings> = {}, timeoutMs = 5000, ctx = {}) => mysqlType.check(settings(over), checkContext(timeoutMs, ctx));
const resolveLocal = async (host: string) => (host === "db.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));
/** The server's sessions for the check account, besides the one asking. */
const otherSessions = (command = "") =>
  check({
    query: `SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'vigil' AND ID <> CONNECTION_ID()${command}`,
    expected: "0",
  });

describe.skipIf(missing)("mysql check against a real MariaDB server", () => {
  test("up: SELECT 1 answers, with its time; the connection is closed after", async () => {
    const r = await check();
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(3000);
    await Bun.sleep(50);
    expect(await otherSessions()).toMatchObject({ up: true });
  });

  test("a host name is resolved and judged, then connected to; an empty database is information_schema", async () => {
    expect(await check({ host: "db.test", database: "", query: "SELECT DATABASE()", expected: "information_schema" }, 5000, { resolve: resolveLocal })).toMatchObject({ up: true });
  });

  test("the first value, or a named column, compared as text or as a number", async () => {
    const query = "SELECT state, id FROM jobs ORDER BY id";
    expect(await check({ query, expected: "done" })).toMatchObject({ up: true });
    expect(await check({ query, column: "id", operator: "<=", expected: "1" })).toMatchObject({ up: true });
    expect(await check({ query, operator: "!=", expected: "failed" })).toMatchObject({ up: true });
    expect(await check({ query: "SELECT COUNT(*) AS queued FROM jobs WHERE state = 'queued'", operator: "<", expected: "1" })).toMatchObject({
      up: false,
      error: 'expected value < 1, got "1"',
    });
    const r = await check({ query, operator: "contains", expected: "fail" });
    expect(r).toMatchObject({ up: false, error: 'expected value contains "fail", got "done"' });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
  });

  test("several statements: the last one that returns rows is asserted", async () => {
    expect(await check({ query: "SET @x = 7; SELECT @x AS x", expected: "7" })).toMatchObject({ up: true });
  });

  test("0 rows with an expectation: query returned 0 rows; without one the check is up", async () => {
    expect(await check({ query: "SELECT id FROM jobs WHERE state = 'failed'", expected: "1" })).toMatchObject({ up: false, error: "query returned 0 rows" });
    expect(await check({ query: "SELECT id FROM jobs WHERE state = 'failed'" })).toMatchObject({ up: true });
  });

  test("a failing query: query failed, with the server's words", async () => {
    expect(await check({ query: "SELECT * FROM no_such_table" })).toMatchObject({ up: false, error: "query failed: Table 'app.no_such_table' doesn't exist" });
  });

  test("a transaction the query opens does not outlive the check", async () => {
    expect(await check({ query: "START TRANSACTION" })).toMatchObject({ up: true });
    await Bun.sleep(50);
    expect(await otherSessions()).toMatchObject({ up: true });
  });

  test("wrong password, unknown user, unknown database", async () => {
    expect(await check({ password: "wrong-password" })).toMatchObject({ up: false, error: "authentication failed" });
    expect(await check({ username: "nobody" })).toMatchObject({ up: false, error: "authentication failed" });
    expect(await check({ database: "nodb" })).toMatchObject({ up: false, error: "MySQL error: Unknown database 'nodb'" });
  });

  test("an empty password stays empty: Vigil's environment (DATABASE_URL) is never sent", async () => {
    process.env.DATABASE_URL = `mysql://vigil:${PASSWORD}@127.0.0.1:${port}/app`;
    try {
      expect(await check({ password: "" })).toMatchObject({ up: false, error: "authentication failed" });
    } finally {
      delete process.env.DATABASE_URL;
    }
  });

  test("secrets never reach the error", async () => {
    expect((await check({ query: `SELECT * FROM \`${PASSWORD}\`` })).error).toBe("query failed: Table 'app.••••••••' doesn't exist");
    expect(JSON.stringify(await check({ password: `${PASSWORD}-wrong` }))).not.toContain(PASSWORD);
  });

  test("TLS required of a server without TLS: said plainly", async () => {
    expect(await check({ tls: "require" })).toMatchObject({ up: false, error: "MySQL error: the server does not offer TLS" });
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

  test("a slow query: the timeout, and the server stops it too (max_statement_time)", async () => {
    expect(await check({ query: "SELECT SLEEP(5)" }, 500)).toMatchObject({ up: false, error: "timeout after 0.5 s" });
    await Bun.sleep(300);
    expect(await otherSessions(" AND INFO LIKE 'SELECT SLEEP%'")).toMatchObject({ up: true });
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
      await Bun.sleep(50);
      expect(silent.accepted()).toBe(0);
    } finally {
      silent.stop();
    }
  });
});

describe("mysql settings", () => {
  const codeOf = (over: Partial<Settings>) => {
    try {
      mysqlType.normalise!(settings(over), ALLOW_PRIVATE);
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults: port 3306; a user name is required; bad fields have their messages", () => {
    expect(schemaMessage(mysqlSettings, { host: "db", username: "app" })).toBeNull();
    expect(schemaMessage(mysqlSettings, { host: "db" })).toBe("User name is required (at most 128 characters)");
    expect(schemaMessage(mysqlSettings, { host: "db", username: "app", port: 0 })).toBe("Port must be a whole number from 1 to 65535");
    expect(schemaMessage(mysqlSettings, { host: "db", username: "app", expected: 5 })).toBe("Expected value must be at most 1024 characters");
  });

  test("normalise and target", () => {
    expect(codeOf({ host: "mysql://db" })).toBe("INVALID_HOST");
    expect(codeOf({ host: "169.254.169.254" })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ operator: ">=", expected: "lots" })).toBe("INVALID_EXPECTED");
    expect(mysqlType.target(settings({ host: "db.example.com", port: 3306, database: "" }))).toBe("db.example.com:3306");
  });
});
