import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { createPasswordHasher } from "../auth/passwords";
import { openDatabase } from "../db/open";
import { testApp } from "../test-support";
import { createUserStore } from "../users/store";
import { backupDatabase } from "./backup";
import { serviceUnit } from "./install-service";
import { resetPassword } from "./reset-password";
import { restoreDatabase } from "./restore";

// The maintenance subcommands against real data dirs (and a real server process where it matters), and /healthz.

const MAIN = resolve(import.meta.dir, "../main.ts");
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-cli-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const vigil = (...args: string[]) => {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env: { ...process.env, VIGIL_DATA_DIR: "" } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

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
    const db = openDatabase(join(dataDir, "vigil.db"));
    expect(db.$client.query("SELECT username FROM users ORDER BY id").all()).toEqual([{ username: "alice" }]);
    db.$client.close();
  }, 60_000);

  test("backup refuses any existing path, a dangling or live symbolic link included, and writes nothing through it", () => {
    const dataDir = tempDir();
    openDatabase(join(dataDir, "vigil.db")).$client.close();
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
  });

  test("restore refuses a damaged file, a database that is not Vigil's, one from a newer Vigil, and a missing file", () => {
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
    const n = openDatabase(newer);
    n.$client.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)", [Date.UTC(2100, 0, 1)]);
    n.$client.close();
    expect(() => restoreDatabase(dataDir, newer)).toThrow("newer version of Vigil");
    expect(() => restoreDatabase(dataDir, join(other, "absent.db"))).toThrow("No such file");
    expect(existsSync(join(dataDir, "vigil.db"))).toBe(false);
  });
});

describe("reset-password", () => {
  test("sets a new password that works, signs the account out everywhere; an unknown user is an error", async () => {
    const db = openDatabase(":memory:");
    const passwords = createPasswordHasher({ memoryCost: 256, timeCost: 1 });
    const users = createUserStore(db);
    const alice = users.create({ username: "Alice", email: null, passwordHash: await passwords.hash("old password 1"), role: "admin" });
    const r = await resetPassword(db, "alice", passwords);
    expect(r.username).toBe("Alice");
    expect(r.password.length).toBeGreaterThanOrEqual(16);
    const after = users.byId(alice.id)!;
    expect(await passwords.verify(r.password, after.passwordHash)).toBe(true);
    expect(await passwords.verify("old password 1", after.passwordHash)).toBe(false);
    expect(after.sessionVersion).toBe(alice.sessionVersion + 1);
    await expect(resetPassword(db, "nobody", passwords)).rejects.toThrow('No user named "nobody"');
  });

  test("from the command line, it prints the new password once", async () => {
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, "vigil.db"));
    createUserStore(db).create({ username: "root", email: null, passwordHash: await Bun.password.hash("x"), role: "admin" });
    db.$client.close();
    const r = vigil("reset-password", "root", "--data-dir", dataDir);
    expect(r.code).toBe(0);
    const password = r.out.match(/New password for root: (\S+)/)?.[1];
    expect(password).toBeDefined();
    const check = openDatabase(join(dataDir, "vigil.db"));
    const { password_hash } = check.$client.query("SELECT password_hash FROM users").get() as { password_hash: string };
    expect(await Bun.password.verify(password!, password_hash)).toBe(true);
    check.$client.close();
  });
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
  });
});

describe("the command line", () => {
  test("--version matches package.json; each subcommand has --help; a missing argument prints the usage", () => {
    expect(vigil("--version").out.trim()).toBe(pkg.version);
    expect(vigil("--help").out).toContain("vigil backup <file>");
    for (const sub of ["backup", "restore", "reset-password", "install-service"]) {
      const r = vigil(sub, "--help");
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: ${sub === "install-service" ? "sudo " : ""}vigil ${sub}`);
    }
    expect(vigil("backup")).toMatchObject({ code: 2, err: expect.stringContaining("Usage: vigil backup") });
  });
});

describe("/healthz", () => {
  test("503 until the checks run, then 200; no sign-in needed", async () => {
    const { call, services } = await testApp();
    const before = await call("GET", "/healthz");
    expect(before.status).toBe(503);
    expect(before.body.success).toBe(false);
    services.monitors.start({ maintenanceDelayMs: 60_000 });
    try {
      expect(await call("GET", "/healthz")).toMatchObject({ status: 200, body: { success: true, status: "ok" } });
    } finally {
      await services.monitors.stop();
    }
  });
});
