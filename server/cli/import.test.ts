import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openDatabase } from "../db/open";
import { TEST_DATABASE_URL, testSchema } from "../db/test-db";
import { fixtureCopy, removeTempDirs, tempDir } from "../import/kuma/test-fixture";
import { databaseFile } from "./data-dir";

// `vigil import kuma` as a person runs it: the plan first, --yes to apply, refusals with a non-zero exit.

const MAIN = resolve(import.meta.dir, "../main.ts");
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  removeTempDirs();
});

const vigil = (...args: string[]) => {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env: { ...process.env, VIGIL_DATA_DIR: "", VIGIL_DATABASE_URL: "", VIGIL_BLOCK_PRIVATE_TARGETS: "" } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** The instance to import into, as its flags: a data dir, or a PostgreSQL schema when the tests run on PostgreSQL. */
async function instance() {
  const dataDir = tempDir();
  if (!TEST_DATABASE_URL) return { flags: ["--data-dir", dataDir], location: databaseFile(dataDir), dataDir };
  const { url, drop } = await testSchema();
  cleanups.push(drop);
  return { flags: ["--database-url", url], location: url, dataDir };
}

async function monitorNames(location: string): Promise<string[]> {
  const db = await openDatabase(location, { max: 1 });
  try {
    return (await db.orm.select({ name: db.t.monitors.name }).from(db.t.monitors).orderBy(db.t.monitors.id)).map((m) => m.name);
  } finally {
    await db.close();
  }
}

/** One part of a printed plan ("Will create", "Will update", "Cannot import"), up to the next blank line. */
const part = (out: string, title: string) => out.slice(out.indexOf(title)).split("\n\n")[0]!;

describe("vigil import kuma", () => {
  test("prints the plan and imports nothing without --yes; --yes applies it; again, it updates", async () => {
    const kuma = fixtureCopy();
    const { flags, location } = await instance();

    const planned = vigil("import", "kuma", kuma, ...flags);
    expect(planned.code).toBe(0);
    expect(planned.out).toContain("From Uptime Kuma 2.x database");
    // Every part of the plan (monitors, channels, pages, windows, settings): 34 monitors to create, 4 of types Vigil lacks.
    const createCount = Number(/Will create \((\d+)\):/.exec(planned.out)?.[1]);
    const skipCount = Number(/Cannot import \((\d+)\):/.exec(planned.out)?.[1]);
    expect(part(planned.out, "Will create").match(/^  monitor /gm)).toHaveLength(34);
    expect(part(planned.out, "Cannot import").match(/^  monitor /gm)).toHaveLength(4);
    expect(planned.out).toMatch(/ERP SQL Server\n\s+- Vigil has no sqlserver check yet\./);
    expect(planned.out).toContain("run again with --yes");
    expect(await monitorNames(location)).toEqual([]);

    const applied = vigil("import", "kuma", kuma, "--yes", ...flags);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain(`Imported: ${createCount} created, `);
    expect(applied.out).toContain(`, ${skipCount} not importable.`);
    if (TEST_DATABASE_URL) expect(applied.out).toContain("Restart Vigil");
    const names = await monitorNames(location);
    expect(names).toHaveLength(34);
    expect(names).toContain("Nightly backup job (push)");

    const again = vigil("import", "kuma", join(kuma, "kuma.db"), "-y", ...flags);
    expect(part(again.out, "Will update").match(/^  monitor /gm)).toHaveLength(34);
    expect(again.out).toContain("Imported: 0 created, ");
    expect(await monitorNames(location)).toHaveLength(34);
  }, 60_000);

  test("refusals exit 1 with the reason; a wrong command line prints the usage (exit 2)", async () => {
    const { flags, location } = await instance();
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "hello");
    const notKuma = vigil("import", "kuma", join(dir, "notes.txt"), "--yes", ...flags);
    expect(notKuma.code).toBe(1);
    expect(notKuma.err).toContain("[NOT_KUMA]");
    const missing = vigil("import", "kuma", join(dir, "nothing-here"), ...flags);
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining("No such file or directory") });
    expect(vigil("import", "kuma", ...flags)).toMatchObject({ code: 2, err: expect.stringContaining("Usage: vigil import kuma <path>") });
    expect(vigil("import", "prometheus", dir, ...flags).code).toBe(2);
    expect(vigil("import", "--help")).toMatchObject({ code: 0, out: expect.stringContaining("Usage: vigil import kuma <path>") });
    expect(await monitorNames(location)).toEqual([]);
  }, 60_000);

  test.skipIf(TEST_DATABASE_URL !== null)("refused while a server uses the data dir (SQLite)", async () => {
    const { dataDir } = await instance();
    // This test's process stands for the running server: alive, and not the subcommand's own.
    writeFileSync(join(dataDir, "vigil.pid"), `${process.pid}\n`);
    const r = vigil("import", "kuma", fixtureCopy(), "--yes", "--data-dir", dataDir);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`a Vigil server (process ${process.pid}) is using`);
  }, 60_000);
});
