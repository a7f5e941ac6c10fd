// Where a subcommand finds the database, and whether a server is using it. A running server keeps its process id in
// <data-dir>/vigil.pid; a file left by a process that no longer runs does not count.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const databaseFile = (dataDir: string) => join(dataDir, "vigil.db");
const pidFile = (dataDir: string) => join(dataDir, "vigil.pid");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // alive, but someone else's
  }
}

/** The id of the server process using the data dir, or null. */
export function serverUsing(dataDir: string): number | null {
  const file = pidFile(dataDir);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/** Marks the data dir as used by this process; the returned function releases it (on shutdown). */
export function claimDataDir(dataDir: string): () => void {
  const other = serverUsing(dataDir);
  if (other !== null) throw new Error(`Another Vigil (process ${other}) is using ${dataDir}. Stop it first, or use another --data-dir.`);
  writeFileSync(pidFile(dataDir), `${process.pid}\n`, { mode: 0o600 });
  return () => {
    if (existsSync(pidFile(dataDir)) && readFileSync(pidFile(dataDir), "utf8").trim() === String(process.pid)) rmSync(pidFile(dataDir));
  };
}
