// Test helpers for the monitors' tables on either engine (server/db/test-db.ts picks the engine): counting rows,
// putting raw check results in bulk, and a database that can be opened again (a restart).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { openDatabase } from "../db/open";
import { checkRows } from "./check-rows";
import { TEST_DATABASE_URL, testSchema } from "../db/test-db";

/** Rows in a table; for check_results, every check (on PostgreSQL, packed ones too). */
export async function countRows(db: Db, table: string): Promise<number> {
  const from = table === "check_results" ? checkRows(db.engine, null) : sql.identifier(table);
  const [row] = await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM ${from}`);
  return row!.n;
}

export interface ResultRow {
  monitorId: number;
  time: number;
  up: boolean;
  responseTime: number | null;
  httpStatus: number | null;
  error: string | null;
}

/** Inserts check results straight into the table, many per statement. */
export async function insertResults(db: Db, rows: readonly ResultRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const values = rows.slice(i, i + 1000).map((r) => sql`(${r.monitorId}, ${r.time}, ${r.up}, ${r.responseTime}, ${r.httpStatus}, ${r.error})`);
    await db.exec(sql`INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error) VALUES ${sql.join(values, sql`, `)}`);
  }
}

/**
 * A database a test can open more than once, as a restarted process would: a SQLite file, or (with
 * VIGIL_TEST_DATABASE_URL) a PostgreSQL schema of its own, each open a new connection pool on it.
 */
export async function reopenableDb(): Promise<{ open: () => Promise<Db>; cleanup: () => Promise<void> }> {
  if (TEST_DATABASE_URL) {
    const { url, drop } = await testSchema();
    return { open: () => openDatabase(url, { max: 4, idleTimeout: 1 }), cleanup: drop };
  }
  const dir = mkdtempSync(join(tmpdir(), "vigil-mon-"));
  return { open: () => openDatabase(join(dir, "vigil.db")), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}
