// `vigil migrate --from data/vigil.db --to postgres://…`: copies a SQLite instance into an empty PostgreSQL
// database, table by table in one transaction (a failure leaves the target empty), checks every table's row count,
// moves the identity sequences past the copied ids, and carries the session secret (the data dir's jwt-secret file)
// into the target's settings so nobody is signed out. Refuses a target that holds any row.
import { getTableColumns, sql, type Table } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { JWT_SECRET_KEY, secretInDir } from "../auth/secret-store";
import type { Db, Orm } from "../db/database";
import { openPostgres } from "../db/postgres";
import { pgTables, sqliteTables, type Tables } from "../db/pg-schema";
import { openSqlite } from "../db/sqlite";
import { serverUsing } from "./data-dir";

/** Tables in an order where every row's foreign keys point at rows already copied. */
export function copyOrder(): (keyof Tables)[] {
  const names = Object.keys(sqliteTables) as (keyof Tables)[];
  const nameOf = new Map(names.map((n) => [getTableConfig(sqliteTables[n] as SQLiteTable).name, n]));
  const deps = new Map(
    names.map((n) => {
      const fks = getTableConfig(sqliteTables[n] as SQLiteTable).foreignKeys;
      const targets = fks.map((fk) => nameOf.get(getTableConfig(fk.reference().foreignTable as SQLiteTable).name)!);
      return [n, targets.filter((t) => t !== n)];
    }),
  );
  const order: (keyof Tables)[] = [];
  const visit = (n: keyof Tables, path: Set<keyof Tables>) => {
    if (order.includes(n)) return;
    if (path.has(n)) throw new Error(`foreign keys form a cycle at ${n}`);
    path.add(n);
    for (const d of deps.get(n)!) visit(d, path);
    path.delete(n);
    order.push(n);
  };
  for (const n of names) visit(n, new Set());
  return order;
}

export interface TableProgress {
  table: string;
  copied: number;
  total: number;
  elapsedMs: number;
  done: boolean;
}

export interface MigrateReport {
  tables: { table: string; rows: number; ms: number }[];
  rows: number;
  ms: number;
  /** Whether the source's session secret was carried over (sessions signed before stay valid). */
  sessionsKept: boolean;
}

const BATCH_ROWS = 2000;
/** PostgreSQL takes at most 65 535 parameters in one statement. */
const MAX_PARAMS = 60_000;

async function countRows(db: Db, table: Table, tx?: Orm): Promise<number> {
  const [row] = await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM ${table}`, tx);
  return Number(row!.n);
}

/**
 * Copies everything from the SQLite file `from` into the PostgreSQL database `to` (created and migrated if
 * needed). `onProgress` hears each batch.
 */
export async function migrateToPostgres(from: string, to: string, onProgress: (p: TableProgress) => void = () => {}): Promise<MigrateReport> {
  if (!existsSync(from)) throw new Error(`No such file: ${from}`);
  const pid = serverUsing(dirname(from));
  if (pid !== null) throw new Error(`A Vigil server (process ${pid}) is using ${from}: stop it, then migrate.`);
  // Opening brings an older instance's schema up to date first, as starting this Vigil would.
  const source = openSqlite(from);
  let target: Db | undefined;
  try {
    target = await openPostgres(to);
    const order = copyOrder();
    for (const name of order) {
      const n = await countRows(target, target.t[name] as Table);
      if (n > 0) throw new Error(`The target is not empty (${getTableConfig(sqliteTables[name] as SQLiteTable).name} has ${n} rows): migrate into a new, empty database.`);
    }
    const started = performance.now();
    const report: MigrateReport = { tables: [], rows: 0, ms: 0, sessionsKept: false };
    const secret = secretInDir(dirname(from));
    const dest = target;
    await dest.tx(async (tx) => {
      for (const name of order) {
        const from = sqliteTables[name] as SQLiteTable;
        const into = pgTables[name] as Table;
        const table = getTableConfig(from).name;
        const columns = getTableColumns(from);
        const perInsert = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMS / Object.keys(columns).length)));
        const total = await countRows(source, from);
        const tableStarted = performance.now();
        let copied = 0;
        // Keyset paging, constant cost per page however large the table: on the composite primary key where there
        // is one (check_results has no rowid), else on SQLite's rowid.
        const keyColumns = getTableConfig(from).primaryKeys[0]?.columns.map((c) => Object.keys(columns).find((k) => columns[k]!.name === c.name)!);
        const key = keyColumns ? sql.join(keyColumns.map((k) => sql.identifier(columns[k]!.name)), sql`, `) : sql`rowid`;
        for (let after: unknown[] | null = null; ; ) {
          const page: Record<string, unknown>[] = await source.orm
            .select({ ...columns, __rowid: keyColumns ? sql<null>`null` : sql<number>`rowid` })
            .from(from)
            .where(after === null ? undefined : sql`(${key}) > (${sql.join(after.map((v) => sql`${v}`), sql`, `)})`)
            .orderBy(key)
            .limit(BATCH_ROWS);
          if (page.length === 0) break;
          const last = page[page.length - 1]!;
          after = keyColumns ? keyColumns.map((k) => last[k]) : [last.__rowid];
          const rows = page.map(({ __rowid, ...row }) => row);
          for (let i = 0; i < rows.length; i += perInsert) await tx.insert(into as SQLiteTable).values(rows.slice(i, i + perInsert));
          copied += rows.length;
          onProgress({ table, copied, total, elapsedMs: performance.now() - tableStarted, done: false });
        }
        const landed = await countRows(dest, into, tx);
        if (landed !== total || copied !== total) {
          throw new Error(`${table}: ${total} rows in the source, ${copied} read, ${landed} in the target; nothing was kept.`);
        }
        // Identity columns: the next generated id follows the highest copied one.
        const identity = Object.values(getTableColumns(into)).find((c) => (c as unknown as { generatedIdentity?: unknown }).generatedIdentity);
        if (identity && total > 0) {
          await dest.exec(sql`SELECT setval(pg_get_serial_sequence(${`"${table}"`}, ${identity.name}), (SELECT max(${sql.identifier(identity.name)}) FROM ${into}))`, tx);
        }
        const ms = performance.now() - tableStarted;
        report.tables.push({ table, rows: total, ms });
        report.rows += total;
        onProgress({ table, copied, total, elapsedMs: ms, done: true });
      }
      // SQLite keeps the secret in a file, PostgreSQL in settings (server/auth/secret-store.ts).
      if (secret) {
        await tx.insert(dest.t.settings).values({ key: JWT_SECRET_KEY, value: secret }).onConflictDoNothing();
        report.sessionsKept = true;
      }
    });
    report.ms = performance.now() - started;
    return report;
  } finally {
    await source.close();
    await target?.close();
  }
}

/** What becomes of the sessions signed by the SQLite instance, told after the copy. */
export function sessionsLine(kept: boolean, dataDir: string): string {
  return kept
    ? "Sessions carried over: the session secret is now in the database, so nobody has to sign in again."
    : `No session secret found in ${dataDir}: everyone will need to sign in again, unless the old instance had it ` +
        "from --jwt-secret / VIGIL_JWT_SECRET: give the same one to the new instance to keep its sessions.";
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** The line shown for a table: rows, rate and, while copying, the time left. */
export function progressLine(p: TableProgress): string {
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? p.copied / seconds : 0;
  const base = `${p.table}: ${fmt(p.copied)}/${fmt(p.total)} rows`;
  if (p.done) return `${base} in ${seconds.toFixed(1)} s${rate > 0 ? ` (${fmt(Math.round(rate))} rows/s)` : ""}`;
  const left = rate > 0 ? (p.total - p.copied) / rate : 0;
  return `${base}, ${fmt(Math.round(rate))} rows/s, ${left.toFixed(0)} s left`;
}

/** Progress for a terminal (one line per table, rewritten in place) or a script (one line per finished table). */
export function progressPrinter(out: NodeJS.WriteStream = process.stdout): (p: TableProgress) => void {
  const tty = out.isTTY === true;
  let last = 0;
  return (p) => {
    if (!tty) {
      if (p.done) out.write(progressLine(p) + "\n");
      return;
    }
    const now = performance.now();
    if (!p.done && now - last < 100) return;
    last = now;
    out.write(`\r\x1b[2K${progressLine(p)}${p.done ? "\n" : ""}`);
  };
}
