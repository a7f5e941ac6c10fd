// One database handle for both engines. Features keep calling their store; the store builds queries with drizzle
// against `db.t` (this engine's tables) and awaits them, so one store serves SQLite and PostgreSQL alike. Where the
// engines must differ (hot-path batch writes, a few SQL functions), the feature branches on `db.engine` in one place.
import type { Database } from "bun:sqlite";
import type { SQL as BunSQL } from "bun";
import type { SQL } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { Tables } from "./pg-schema";

export type Engine = "sqlite" | "postgres";

/**
 * drizzle's query builder, typed as the SQLite one for both engines (the PostgreSQL tables are derived from the
 * SQLite ones and return the same JavaScript values). Await queries; never call SQLite's `.get()`, `.all()`,
 * `.run()` or `.values()`, which PostgreSQL does not have: `first()` below gives the first row.
 */
export type Orm = BunSQLiteDatabase;

export interface TxOptions {
  /**
   * Serialises this transaction with every other one naming the same lock, across every node on PostgreSQL (an
   * advisory transaction lock): for read-then-write rules such as "the first account becomes the admin". SQLite
   * runs one transaction at a time anyway.
   */
  lock?: string;
}

export interface Db {
  readonly engine: Engine;
  /** The query builder outside transactions. */
  readonly orm: Orm;
  /** This engine's tables (same names and types as server/db/schema.ts). */
  readonly t: Tables;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. `fn` must await nothing but
   * the database (no network, no timers): on SQLite it then runs within one turn of the event loop, so no other
   * work can slip into it (tests fail a transaction that spans a turn).
   */
  tx<T>(fn: (tx: Orm) => Promise<T>, options?: TxOptions): Promise<T>;
  /** Rows of a raw statement written with drizzle's sql`` (its placeholders fit either engine); integers as numbers. */
  rows<T = Record<string, unknown>>(query: SQL, tx?: Orm): Promise<T[]>;
  /** Runs a raw statement; resolves to the number of rows it changed. */
  exec(query: SQL, tx?: Orm): Promise<number>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The engines' own clients, for the few hot paths that talk to them directly (null on the other engine). */
  readonly sqlite: Database | null;
  readonly pg: BunSQL | null;
  /** Where it is, without a password: a file path, ":memory:" or a postgres:// URL. */
  readonly location: string;
}

/** The first row of a query, or undefined. */
export async function first<T>(query: PromiseLike<T[]>): Promise<T | undefined> {
  return (await query)[0];
}

/** A UNIQUE (or primary key) violation, on either engine; `name` narrows it to a constraint or column name. */
export function isUniqueViolation(e: unknown, name?: string): boolean {
  for (let err = e as { message?: string; code?: string; errno?: string; cause?: unknown } | undefined; err; err = err.cause as typeof err) {
    const text = `${err.message ?? ""} ${(err as { constraint?: string }).constraint ?? ""}`;
    const unique = err.code === "23505" || err.code === "SQLITE_CONSTRAINT_UNIQUE" || err.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || /UNIQUE constraint failed|duplicate key value/.test(text);
    if (unique) return name === undefined || text.includes(name) || String((err as { detail?: string }).detail ?? "").includes(name);
  }
  return false;
}

/** A postgres:// URL with its password hidden, for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:@/]+):[^@/]*@/, "://$1:***@");
  }
}

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);
