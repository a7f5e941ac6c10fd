// Shared by the command-line tests: `vigil` run from source, temporary data dirs, a database's usernames.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase } from "../db/open";

export const MAIN = resolve(import.meta.dir, "../main.ts");

const dirs: string[] = [];
/** A temporary directory, removed by removeTempDirs (call it from afterEach). */
export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-cli-"));
  dirs.push(dir);
  return dir;
};
export const removeTempDirs = () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** Runs `vigil <args>` from source with `env` added (no data dir or database URL from the caller's environment). */
export const vigilWith = (env: Record<string, string>, ...args: string[]) => {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env: { ...process.env, VIGIL_DATA_DIR: "", VIGIL_DATABASE_URL: "", ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
export const vigil = (...args: string[]) => vigilWith({}, ...args);

/** Usernames in a database, in id order. */
export const usernames = async (location: string) => {
  const db = await openDatabase(location, { max: 1 });
  try {
    return (await db.orm.select({ username: db.t.users.username }).from(db.t.users).orderBy(db.t.users.id)).map((u) => u.username);
  } finally {
    await db.close();
  }
};
