// `vigil config export | plan | apply` as a person or a CI job runs it: on the database directly (a data dir, or a
// PostgreSQL schema when the tests run on PostgreSQL), and through a running server with --url and --token.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openDatabase } from "../db/open";
import { TEST_DATABASE_URL, testSchema } from "../db/test-db";
import { removeTempDirs, tempDir } from "../import/kuma/test-fixture";
import { testApp } from "../test-support";
import { databaseFile } from "./data-dir";

const MAIN = resolve(import.meta.dir, "../main.ts");
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  removeTempDirs();
});

/** Runs vigil without blocking this process (the --url tests serve the API from it). */
async function vigil(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    env: { ...process.env, VIGIL_DATA_DIR: "", VIGIL_DATABASE_URL: "", VIGIL_URL: "", VIGIL_TOKEN: "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

const FILE = `version: 1
monitors:
  - key: shop
    name: Shop
    url: http://127.0.0.1:9/
    active: false
  - key: cache
    name: Cache
    type: redis
    active: false
    settings:
      host: 127.0.0.1
      password: \${CACHE_PASSWORD}
`;

async function instance() {
  const dataDir = tempDir();
  if (!TEST_DATABASE_URL) return { flags: ["--data-dir", dataDir], location: databaseFile(dataDir), dir: dataDir };
  const { url, drop } = await testSchema();
  cleanups.push(drop);
  return { flags: ["--database-url", url], location: url, dir: dataDir };
}

async function monitorNames(location: string) {
  const db = await openDatabase(location, { max: 1 });
  try {
    return (await db.orm.select({ name: db.t.monitors.name }).from(db.t.monitors).orderBy(db.t.monitors.name)).map((m) => m.name);
  } finally {
    await db.close();
  }
}

describe("vigil config", () => {
  test("on the database: plan exits 2 with changes, apply --yes applies, plan again exits 0; export writes references", async () => {
    const { flags, location, dir } = await instance();
    const file = join(dir, "vigil.yaml");
    writeFileSync(file, FILE);
    const missing = await vigil(["config", "plan", file, ...flags]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("line 13, monitors[1].settings.password: the environment variable CACHE_PASSWORD is not set");

    const env = { CACHE_PASSWORD: "pa55-word" };
    const planned = await vigil(["config", "plan", file, ...flags], env);
    expect(planned.code).toBe(2);
    expect(planned.out).toContain("+ monitor shop (Shop)");
    expect(planned.out).toContain("    settings.password: (secret changed)");
    expect(planned.out).toContain("Plan: 2 to create, 0 to change, 0 to delete, 0 unchanged.");
    expect(planned.out).not.toContain("pa55-word");
    expect(await monitorNames(location)).toEqual([]);

    const withoutYes = await vigil(["config", "apply", file, ...flags], env);
    expect(withoutYes.code).toBe(1);
    expect(withoutYes.out).toContain("run again with --yes");
    const applied = await vigil(["config", "apply", file, "--yes", ...flags], env);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain("Applied: 2 created, 0 changed, 0 deleted.");
    expect(await monitorNames(location)).toEqual(["Cache", "Shop"]);
    const again = await vigil(["config", "plan", file, ...flags], env);
    expect(again.code).toBe(0);
    expect(again.out).toContain("Plan: 0 to create, 0 to change, 0 to delete, 2 unchanged.");

    const exported = await vigil(["config", "export", ...flags]);
    expect(exported.code).toBe(0);
    expect(exported.out).toContain("password: ${VIGIL_MONITOR_CACHE_PASSWORD}");
    const out = join(dir, "secret.yaml");
    expect((await vigil(["config", "export", "--with-secrets", "-o", out, ...flags])).code).toBe(0);
    expect(await Bun.file(out).text()).toContain("password: pa55-word");
  }, 60_000);

  test("through a running server with --url and --token", async () => {
    const t = await testApp();
    const admin = await t.signUp("alice");
    const token = (await t.call<any>("POST", "/api/tokens", { token: admin.token, body: { name: "ci", scope: "write" } })).body.secret as string;
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => t.app.handle(req) });
    cleanups.push(() => server.stop(true));
    const dir = tempDir();
    const file = join(dir, "vigil.yaml");
    writeFileSync(file, FILE);
    const env = { CACHE_PASSWORD: "pa55-word", VIGIL_URL: `http://127.0.0.1:${server.port}`, VIGIL_TOKEN: token };
    const planned = await vigil(["config", "plan", file], env);
    expect(planned.code).toBe(2);
    expect(planned.out).toContain("Plan: 2 to create");
    const applied = await vigil(["config", "apply", file, "--yes"], env);
    expect(applied.code).toBe(0);
    // The server's own memory has them (it re-read after the apply).
    expect(t.services.monitors.list().map((m) => m.name).sort()).toEqual(["Cache", "Shop"]);
    expect((await vigil(["config", "plan", file], env)).code).toBe(0);
    const exported = await vigil(["config", "export"], env);
    expect(exported.out).toContain("key: cache");
    const refused = await vigil(["config", "export", "--with-secrets"], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("not an API token");
    const bad = await vigil(["config", "plan", file], { ...env, VIGIL_TOKEN: "vgl_api_nope" });
    expect(bad.code).toBe(1);
  }, 60_000);
});
