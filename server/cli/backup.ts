// `vigil backup <file>`: a consistent copy of the live database. VACUUM INTO reads inside one transaction, so the
// copy is a snapshot even while the server keeps writing (WAL lets both run); it is also compacted.
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { databaseFile } from "./data-dir";

export function backupDatabase(dataDir: string, target: string): { file: string; bytes: number } {
  const source = databaseFile(dataDir);
  if (!existsSync(source)) throw new Error(`No database at ${source}: check --data-dir.`);
  const file = resolve(target);
  if (existsSync(file)) throw new Error(`${file} already exists: choose a new file name (a backup never overwrites).`);
  const sqlite = new Database(source, { readonly: true });
  try {
    sqlite.exec("PRAGMA busy_timeout = 5000");
    sqlite.query("VACUUM INTO ?").run(file);
  } finally {
    sqlite.close();
  }
  chmodSync(file, 0o600); // it holds password hashes and channel secrets
  return { file, bytes: statSync(file).size };
}
