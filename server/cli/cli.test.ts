import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import pkg from "../../package.json" with { type: "json" };
import { openDatabase } from "../db/open";
import { createUserStore } from "../users/store";
import { backupDatabase } from "./backup";
import { serviceUnit } from "./install-service";
import { restoreDatabase } from "./restore";
import { MAIN, removeTempDirs, tempDir, usernames, vigil, vigilWith } from "./test-cli";

// The maintenance subcommands against real data dirs (and a real server process where it matters): the SQLite file's
// backup and restore, the command line's usage, install-service. SQLite only (npm test): nothing here depends on the
// engine Vigil is given; the parts that do are in cli-database.test.ts.

afterEach(removeTempDirs);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A real server on a free port over `dataDir`; resolves once it listens. */
async function startServer(dataDir: string) {
  const proc = spawn(process.execPath, [MAIN, "--port", "0", "--data-dir", dataDir, "--jwt-secret", "x".repeat(40)], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start: ${log}`)), 20_000);
    proc.stdout!.on("data", (c: Buffer) => {
      log += c;
      const m = log.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    proc.stderr!.on("data", (c: Buffer) => (log += c));
  });
  const post = (path: string, body: unknown, token?: string) =>
    fetch(url + path, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const stop = async () => {
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await exited;
  };
  return { url, post, stop };
}

describe("backup and restore", () => {
  test("a backup of a running server is whole; restore is refused while it runs and works once it stopped", async () => {
    const dataDir = tempDir();
    const backup = join(tempDir(), "vigil-backup.db");
    const server = await startServer(dataDir);
    try {
      const body = { username: "alice", password: "correct horse", confirmPassword: "correct horse" };
      expect((await server.post("/api/auth/register", body)).status).toBe(201);
      const token = ((await (await server.post("/api/auth/login", { username: "alice", password: "correct horse" })).json()) as { token: string }).token;
      // Writes keep coming while the backup runs.
      const writes = Promise.all(Array.from({ length: 30 }, (_, i) => server.post("/api/monitors", { name: `m${i}`, url: `http://127.0.0.1:9/${i}`, active: false }, token)));
      const made = vigil("backup", backup, "--data-dir", dataDir);
      await writes;
      expect(made.code).toBe(0);
      expect(made.out).toContain("backup written to");
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      expect(vigil("backup", backup, "--data-dir", dataDir)).toMatchObject({ code: 1, err: expect.stringContaining("already exists") });

      const copy = new Database(backup, { readonly: true });
      expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect(copy.query("SELECT username FROM users").all()).toEqual([{ username: "alice" }]);
      copy.close();

      const refused = vigil("restore", backup, "--data-dir", dataDir);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain("is using");
      await server.post("/api/users", { username: "bob", password: "correct horse", confirmPassword: "correct horse" }, token);
    } finally {
      await server.stop();
    }
    expect(existsSync(join(dataDir, "vigil.pid"))).toBe(false);
    const restored = vigil("restore", backup, "--data-dir", dataDir);
    expect(restored.code).toBe(0);
    expect(readdirSync(dataDir).some((f) => f.startsWith("vigil.db.before-restore-"))).toBe(true);
    expect(await usernames(join(dataDir, "vigil.db"))).toEqual(["alice"]);
  }, 60_000);

  test("backup refuses any existing path, a dangling or live symbolic link included, and writes nothing through it", async () => {
    const dataDir = tempDir();
    await (await openDatabase(join(dataDir, "vigil.db"))).close();
    const out = tempDir();
    const victim = join(out, "victim.txt");
    const dangling = join(out, "dangling.db");
    symlinkSync(join(out, "not-there-yet"), dangling);
    writeFileSync(victim, "keep me");
    const live = join(out, "live.db");
    symlinkSync(victim, live);
    for (const target of [dangling, live, victim]) {
      const refused = vigil("backup", target, "--data-dir", dataDir);
      expect(refused).toMatchObject({ code: 1, err: expect.stringContaining("already exists") });
    }
    expect(existsSync(join(out, "not-there-yet"))).toBe(false);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    // Nothing left behind, and a fresh name still works (0600, no work directory beside it).
    expect(readdirSync(out).sort()).toEqual(["dangling.db", "live.db", "victim.txt"]);
    const fresh = backupDatabase(dataDir, join(out, "fresh.db"));
    expect(statSync(fresh.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(out).sort()).toEqual(["dangling.db", "fresh.db", "live.db", "victim.txt"]);
  }, 60_000);

  test("from source (no executable), `npm run vigil -- backup` makes the same backup", async () => {
    const dataDir = tempDir();
    const db = await openDatabase(join(dataDir, "vigil.db"));
    await createUserStore(db).create({ username: "alice", email: null, passwordHash: "h", role: "admin" });
    await db.close();
    const backup = join(tempDir(), "source-backup.db");
    const r = spawnSync("npm", ["run", "--silent", "vigil", "--", "backup", backup, "--data-dir", dataDir], {
      cwd: resolve(import.meta.dir, "../.."),
      encoding: "utf8",
      env: { ...process.env, VIGIL_DATA_DIR: "", VIGIL_DATABASE_URL: "" },
    });
    expect({ code: r.status, err: r.stderr }).toEqual({ code: 0, err: "" });
    expect(r.stdout).toContain("backup written to");
    expect(await usernames(backup)).toEqual(["alice"]);
  }, 60_000);

  test("restore refuses a damaged file, a database that is not Vigil's, one from a newer Vigil, and a missing file", async () => {
    const dataDir = tempDir();
    const other = tempDir();
    const junk = join(other, "junk.db");
    writeFileSync(junk, "SQLite format 3\0" + "garbage".repeat(500));
    expect(() => restoreDatabase(dataDir, junk)).toThrow(/not a SQLite database|damaged/);

    const foreign = join(other, "foreign.db");
    const f = new Database(foreign);
    f.exec("CREATE TABLE notes (x)");
    f.close();
    expect(() => restoreDatabase(dataDir, foreign)).toThrow("not a Vigil database");

    const newer = join(other, "newer.db");
    const n = await openDatabase(newer);
    await n.exec(sql`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ${Date.UTC(2100, 0, 1)})`);
    await n.close();
    expect(() => restoreDatabase(dataDir, newer)).toThrow("newer version of Vigil");
    expect(() => restoreDatabase(dataDir, join(other, "absent.db"))).toThrow("No such file");
    expect(existsSync(join(dataDir, "vigil.db"))).toBe(false);
  });

  test("with a PostgreSQL database configured, both refuse and point at pg_dump / pg_restore", () => {
    const dataDir = tempDir();
    const url = "postgres://vigil:s3cret@db.example:5432/vigil";
    const backup = join(tempDir(), "b.db");
    for (const [run, tool] of [
      [vigil("backup", backup, "--data-dir", dataDir, "--database-url", url), "pg_dump"],
      [vigilWith({ VIGIL_DATABASE_URL: url }, "backup", backup, "--data-dir", dataDir), "pg_dump"],
      [vigil("restore", backup, "--data-dir", dataDir, "--database-url", url), "pg_restore"],
      [vigilWith({ VIGIL_DATABASE_URL: url }, "restore", backup, "--data-dir", dataDir), "pg_restore"],
    ] as const) {
      expect(run.code).toBe(1);
      expect(run.err).toContain("PostgreSQL");
      expect(run.err).toContain(`Use ${tool}`);
      expect(run.err).not.toContain("s3cret");
    }
    expect(existsSync(backup)).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);
});

describe("reset-password", () => {

  test("from the command line, it prints the new password once", async () => {
    const dataDir = tempDir();
    const db = await openDatabase(join(dataDir, "vigil.db"));
    await createUserStore(db).create({ username: "root", email: null, passwordHash: await Bun.password.hash("x"), role: "admin" });
    await db.close();
    const r = vigil("reset-password", "root", "--data-dir", dataDir);
    expect(r.code).toBe(0);
    const password = r.out.match(/New password for root: (\S+)/)?.[1];
    expect(password).toBeDefined();
    const check = await openDatabase(join(dataDir, "vigil.db"));
    const [{ password_hash }] = await check.rows<{ password_hash: string }>(sql`SELECT password_hash FROM users`);
    expect(await Bun.password.verify(password!, password_hash!)).toBe(true);
    await check.close();
  }, 60_000);

});

describe("migrate", () => {
  test("--from and --to are both required; --to must be a PostgreSQL URL", () => {
    for (const [args, message] of [
      [[], "missing --from <sqlite file> and --to <postgres url>"],
      [["--from", "data/vigil.db"], "missing --to <postgres url>"],
      [["--to", "postgres://localhost/vigil"], "missing --from <sqlite file>"],
      [["--from", "data/vigil.db", "--to", "data/other.db"], "--to must be a PostgreSQL URL"],
      [["data/vigil.db", "postgres://localhost/vigil"], "missing --from"],
    ] as const) {
      const r = vigil("migrate", ...args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.err).toContain(message);
      expect(r.err).toContain("Usage: vigil migrate --from <sqlite file> --to <postgres url>");
    }
    expect(vigil("migrate", "--from", "/nonexistent/vigil.db", "--to", "postgres://127.0.0.1:1/vigil")).toMatchObject({
      code: 1,
      err: expect.stringContaining("vigil migrate: No such file: /nonexistent/vigil.db"),
    });
  }, 60_000);

});

describe("install-service", () => {
  test("the unit runs as its own user with the data dir the only writable path; low ports get just the bind capability", () => {
    const unit = serviceUnit({ user: "vigil", dataDir: "/var/lib/vigil", host: "0.0.0.0", port: 3000, binary: "/usr/local/bin/vigil", extraArgs: ["--public-url", "https://status.example.com"] });
    for (const line of [
      "User=vigil",
      "ExecStart=/usr/local/bin/vigil serve --data-dir /var/lib/vigil --host 0.0.0.0 --port 3000 --public-url https://status.example.com",
      "Restart=on-failure",
      "NoNewPrivileges=true",
      "ProtectSystem=strict",
      "ReadWritePaths=/var/lib/vigil",
      "CapabilityBoundingSet=\n",
      "WantedBy=multi-user.target",
    ]) expect(unit).toContain(line);
    expect(serviceUnit({ user: "vigil", dataDir: "/srv/my data", host: "::", port: 80, binary: "/opt/vigil", extraArgs: [] })).toContain(
      'ExecStart=/opt/vigil serve --data-dir "/srv/my data" --host :: --port 80',
    );
    expect(serviceUnit({ user: "vigil", dataDir: "/d", host: "::", port: 80, binary: "/opt/vigil", extraArgs: [] })).toContain("AmbientCapabilities=CAP_NET_BIND_SERVICE");
    const printed = vigil("install-service", "--print", "--port", "8080", "--binary", "/usr/local/bin/vigil");
    expect(printed.code).toBe(0);
    expect(printed.out).toContain("--port 8080");
  }, 60_000);
});

describe("the command line", () => {
  test("--version matches package.json; each subcommand has --help; a missing argument prints the usage", () => {
    expect(vigil("--version").out.trim()).toBe(pkg.version);
    expect(vigil("--help").out).toContain("vigil backup <file>");
    expect(vigil("--help").out).toContain("migrate");
    for (const sub of ["backup", "restore", "reset-password", "install-service", "migrate", "import"]) {
      const r = vigil(sub, "--help");
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: ${sub === "install-service" ? "sudo " : ""}vigil ${sub}`);
    }
    expect(vigil("backup")).toMatchObject({ code: 2, err: expect.stringContaining("Usage: vigil backup") });
  }, 60_000);
});

