// `vigil restore <file>`: puts a backup in place of the data dir's database. Refused while a server uses the data dir,
// and for a file that is not a sound Vigil database this build can read. The database it replaces is kept beside it.
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { newestKnownMigration, schemaVersion } from "../db/open";
import { databaseFile, serverUsing } from "./data-dir";

export function checkBackup(file: string): void {
  if (!existsSync(file)) throw new Error(`No such file: ${file}`);
  let sqlite: Database;
  try {
    sqlite = new Database(file, { readonly: true });
  } catch (e) {
    throw new Error(`${file} is not a SQLite database (${(e as Error).message})`);
  }
  try {
    let integrity: string;
    let version: number | null;
    try {
      integrity = sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((r) => r.integrity_check).join("; ");
      version = schemaVersion(sqlite);
    } catch (e) {
      throw new Error(`${file} is not a SQLite database (${(e as Error).message})`);
    }
    if (integrity !== "ok") throw new Error(`${file} is damaged: ${integrity.slice(0, 300)}`);
    if (version === null) throw new Error(`${file} is not a Vigil database (it has no schema version).`);
    if (version > newestKnownMigration()) throw new Error(`${file} was written by a newer version of Vigil: upgrade Vigil first.`);
  } finally {
    sqlite.close();
  }
}

/** Returns where the replaced database was kept (null when there was none). */
export function restoreDatabase(dataDir: string, backup: string, now = Date.now()): { kept: string | null } {
  const file = resolve(backup);
  const pid = serverUsing(dataDir);
  if (pid !== null) throw new Error(`A Vigil server (process ${pid}) is using ${dataDir}: stop it, then restore.`);
  checkBackup(file);
  const target = databaseFile(dataDir);
  let kept: string | null = null;
  if (existsSync(target)) {
    kept = `${target}.before-restore-${new Date(now).toISOString().replace(/[:.]/g, "-")}`;
    // Fold the WAL in first so the kept copy is whole on its own.
    const old = new Database(target);
    old.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    old.close();
    renameSync(target, kept);
  }
  for (const extra of [`${target}-wal`, `${target}-shm`]) rmSync(extra, { force: true });
  copyFileSync(file, target);
  return { kept };
}
