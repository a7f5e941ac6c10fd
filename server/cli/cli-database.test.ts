import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createPasswordHasher } from "../auth/passwords";
import { openDatabase } from "../db/open";
import { TEST_DATABASE_URL, testDb, testSchema } from "../db/test-db";
import { testApp } from "../test-support";
import { createUserStore } from "../users/store";
import { resetPassword } from "./reset-password";
import { removeTempDirs, tempDir, usernames, vigil, vigilWith } from "./test-cli";

// The maintenance subcommands' parts that work on either engine (reset-password, migrate into PostgreSQL) and
// /healthz: run by npm test on SQLite and again on PostgreSQL. The engine-independent rest (backup and restore of the
// SQLite file, install-service, the command line's usage) is in cli.test.ts, once.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  removeTempDirs();
});

describe("reset-password", () => {
  test("sets a new password that works, signs the account out everywhere; an unknown user is an error", async () => {
    const db = await testDb();
    cleanups.push(() => db.close());
    const passwords = createPasswordHasher({ memoryCost: 256, timeCost: 1 });
    const users = createUserStore(db);
    const alice = await users.create({ username: "Alice", email: null, passwordHash: await passwords.hash("old password 1"), role: "admin" });
    const r = await resetPassword(db, "alice", passwords);
    expect(r.username).toBe("Alice");
    expect(r.password.length).toBeGreaterThanOrEqual(16);
    const after = (await users.byId(alice.id))!;
    expect(await passwords.verify(r.password, after.passwordHash)).toBe(true);
    expect(await passwords.verify("old password 1", after.passwordHash)).toBe(false);
    expect(after.sessionVersion).toBe(alice.sessionVersion + 1);
    await expect(resetPassword(db, "nobody", passwords)).rejects.toThrow('No user named "nobody"');
  });

  test.skipIf(!TEST_DATABASE_URL)("from the command line, on PostgreSQL (--database-url or VIGIL_DATABASE_URL)", async () => {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const db = await openDatabase(schema.url, { max: 1 });
    const users = createUserStore(db);
    const root = await users.create({ username: "root", email: null, passwordHash: await Bun.password.hash("x"), role: "admin" });
    await db.close();
    const runs = [() => vigil("reset-password", "root", "--database-url", schema.url), () => vigilWith({ VIGIL_DATABASE_URL: schema.url }, "reset-password", "ROOT")];
    for (const run of runs) {
      const r = run();
      expect(r.code).toBe(0);
      const password = r.out.match(/New password for root: (\S+)/)?.[1];
      expect(password).toBeDefined();
      const check = await openDatabase(schema.url, { max: 1 });
      const after = (await createUserStore(check).byId(root.id))!;
      await check.close();
      expect(await Bun.password.verify(password!, after.passwordHash)).toBe(true);
    }
    expect(vigil("reset-password", "nobody", "--database-url", schema.url)).toMatchObject({ code: 1, err: expect.stringContaining('No user named "nobody"') });
  }, 60_000);
});

describe("migrate", () => {
  test.skipIf(!TEST_DATABASE_URL)("copies a data dir's SQLite database into an empty PostgreSQL one; a second run is refused", async () => {
    const dataDir = tempDir();
    const file = join(dataDir, "vigil.db");
    const db = await openDatabase(file);
    const users = createUserStore(db);
    await users.create({ username: "alice", email: "a@example.com", passwordHash: "h", role: "admin" });
    await users.create({ username: "bob", email: null, passwordHash: "h", role: "editor" });
    await db.close();
    const target = await testSchema();
    cleanups.push(target.drop);

    const r = vigil("migrate", "--from", file, "--to", target.url);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("users: 2/2 rows");
    expect(r.out).toMatch(/Migrated \d+ rows in \d+ tables in [\d.]+ s/);
    expect(r.out).toContain(`No session secret found in ${dataDir}: everyone will need to sign in again`);
    expect(await usernames(target.url)).toEqual(["alice", "bob"]);
    expect(await usernames(file)).toEqual(["alice", "bob"]);

    const again = vigil("migrate", "--from", file, "--to", target.url);
    expect(again.code).toBe(1);
    expect(again.err).toContain("The target is not empty");
  }, 60_000);
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
