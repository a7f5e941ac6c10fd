// `vigil backup <file>`: a consistent copy of the live database. VACUUM INTO reads inside one transaction, so the
// copy is a snapshot even while the server keeps writing (WAL lets both run); it is also compacted.
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, constants, existsSync, mkdtempSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { databaseFile } from "./data-dir";

const exists = (file: string) =>
  new Error(`${file} already exists: choose a new file name (a backup never overwrites, nor writes through a link).`);

/**
 * Never writes through anything already at `target`, a symbolic link included (dangling or not): the name is claimed
 * with O_CREAT|O_EXCL|O_NOFOLLOW (which refuses any existing entry), the copy is written inside a private directory
 * made beside it (0700, so nobody can plant a link there), then renamed over the claimed name, which replaces that
 * directory entry itself and follows nothing.
 */
export function backupDatabase(dataDir: string, target: string): { file: string; bytes: number } {
  const source = databaseFile(dataDir);
  if (!existsSync(source)) throw new Error(`No database at ${source}: check --data-dir.`);
  const file = resolve(target);
  let claimed: number;
  try {
    // 0600: it holds password hashes and channel secrets.
    claimed = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST" || (e as NodeJS.ErrnoException).code === "ELOOP") throw exists(file);
    throw e;
  }
  closeSync(claimed);
  const workDir = mkdtempSync(join(dirname(file), `.${basename(file)}.`));
  const copy = join(workDir, "backup.db");
  try {
    const sqlite = new Database(source, { readonly: true });
    try {
      sqlite.exec("PRAGMA busy_timeout = 5000");
      sqlite.query("VACUUM INTO ?").run(copy);
    } finally {
      sqlite.close();
    }
    chmodSync(copy, 0o600); // SQLite creates it by the umask; it holds password hashes and channel secrets
    renameSync(copy, file);
  } catch (e) {
    rmSync(file, { force: true });
    throw e;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return { file, bytes: statSync(file).size };
}
