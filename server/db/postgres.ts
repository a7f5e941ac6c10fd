// PostgreSQL (14+) as the store, for those who outgrow one box: `--database-url postgres://…`. Same schema (derived
// from the SQLite one, server/db/pg-schema.ts), same migrations story: versioned, applied at start under an advisory
// lock (several nodes may start at once), and a database written by a newer Vigil refused.
import { SQL as BunSQL } from "bun";
import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import { migrate } from "drizzle-orm/bun-sql/migrator";
import { join } from "node:path";
import { redactUrl, type Db, type Orm, type TxOptions } from "./database";
import { DatabaseUnavailableError, NewerDatabaseError } from "./errors";
import { pgTables } from "./pg-schema";
import { newestMigrationIn } from "./sqlite";

/** Embedded in the executable with `--asset server/db/migrations-pg`, like the SQLite ones. */
const MIGRATIONS_FOLDER = join(import.meta.dir, "migrations-pg");
export const newestKnownPgMigration = () => newestMigrationIn(MIGRATIONS_FOLDER);

/** The first key of every advisory lock Vigil takes ("VIGL"), so they cannot collide with another application's. */
export const LOCK_SPACE = 0x5649474c;

/** A lock name as the second key of a two-key advisory lock. */
export function lockKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Result columns PostgreSQL sends as text (int8, numeric) that SQLite gives as numbers. */
const NUMERIC_TYPES = new Set([20, 1700]);

type Result = Record<string, unknown>[] & { columns?: { name: string; type: number }[]; count?: number; affectedRows?: number };

function numbersOf<T>(result: Result): T[] {
  const names = (result.columns ?? []).filter((c) => NUMERIC_TYPES.has(c.type)).map((c) => c.name);
  if (names.length > 0) {
    for (const row of result) for (const name of names) if (typeof row[name] === "string") row[name] = Number(row[name]);
  }
  return result as unknown as T[];
}

export interface PostgresOptions {
  /** Connections in the pool (default 20). */
  max?: number;
  /** Seconds an unused connection stays open (default 60). */
  idleTimeout?: number;
  /** The schema to work in (its search_path); the login's default schema when absent. */
  schema?: string;
}

/** The URL without Vigil's own `schema` parameter, and that schema (a URL may name one: `…/db?schema=vigil`). */
export function splitSchema(url: string): { url: string; schema: string | undefined } {
  try {
    const u = new URL(url);
    const schema = u.searchParams.get("schema") ?? undefined;
    u.searchParams.delete("schema");
    return { url: u.toString(), schema };
  } catch {
    return { url, schema: undefined };
  }
}

export async function openPostgres(given: string, options: PostgresOptions = {}): Promise<Db> {
  const { max = 20, idleTimeout = 60 } = options;
  const split = splitSchema(given);
  const url = split.url;
  const schema = options.schema ?? split.schema;
  if (schema !== undefined && !/^[A-Za-z_][\w$]{0,62}$/.test(schema)) throw new DatabaseUnavailableError(`Invalid schema name: ${schema}`);
  const location = redactUrl(given);
  const client = new BunSQL({ url, max, idleTimeout, connectionTimeout: 10, ...(schema ? { connection: { search_path: schema } } : {}) });
  try {
    const [row] = await client`SELECT current_setting('server_version_num')::int AS version, current_schema() AS schema`;
    if (row.version < 140000) throw new DatabaseUnavailableError(`${location} runs PostgreSQL ${Math.floor(row.version / 10000)}: Vigil needs 14 or newer.`);
    await migrateUnderLock(client, row.schema as string, location);
  } catch (e) {
    await client.close().catch(() => {});
    if (e instanceof NewerDatabaseError || e instanceof DatabaseUnavailableError) throw e;
    throw new DatabaseUnavailableError(`Cannot open the PostgreSQL database ${location}: ${(e as Error).message}`);
  }
  const orm = drizzle({ client }) as unknown as Orm;
  const pgOrm = orm as unknown as { transaction<T>(fn: (tx: Orm) => Promise<T>): Promise<T>; execute(q: SQL): Promise<Result> };
  const run = (query: SQL, tx: Orm = orm) => (tx as unknown as typeof pgOrm).execute(query);

  return {
    engine: "postgres",
    orm,
    t: pgTables,
    sqlite: null,
    pg: client,
    location,
    tx<T>(fn: (tx: Orm) => Promise<T>, options: TxOptions = {}): Promise<T> {
      return pgOrm.transaction(async (tx) => {
        if (options.lock) await run(sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, ${lockKey(options.lock)})`, tx);
        return fn(tx);
      });
    },
    rows: async <T>(query: SQL, tx?: Orm) => numbersOf<T>(await run(query, tx)),
    exec: async (query: SQL, tx?: Orm) => {
      const result = await run(query, tx);
      return result.count ?? result.affectedRows ?? 0;
    },
    ping: async () => void (await client`SELECT 1`),
    close: () => client.close({ timeout: 5 }),
  };
}

/** Applies the migrations this build has, one node at a time; refuses a schema newer than this build knows. */
async function migrateUnderLock(client: BunSQL, schema: string, location: string) {
  const reserved = await client.reserve();
  try {
    await reserved`SELECT pg_advisory_lock(${LOCK_SPACE}, ${lockKey("migrate")})`;
    const [{ exists }] = await reserved`SELECT to_regclass(${`"${schema}".__drizzle_migrations`}) IS NOT NULL AS exists`;
    if (exists) {
      const [{ newest }] = await reserved.unsafe(`SELECT max(created_at)::float8 AS newest FROM "${schema}".__drizzle_migrations`);
      const lastKnown = newestKnownPgMigration();
      if (newest !== null && newest > lastKnown) {
        throw new NewerDatabaseError(
          `The database ${location} was written by a newer version of Vigil (schema from ${new Date(newest).toISOString()}, ` +
            `this build knows up to ${new Date(lastKnown).toISOString()}). Upgrade Vigil, or point it at another database.`,
        );
      }
    }
    await migrate(drizzle({ client: reserved as unknown as BunSQL }), {
      migrationsFolder: MIGRATIONS_FOLDER,
      migrationsSchema: schema,
      migrationsTable: "__drizzle_migrations",
    });
  } finally {
    await reserved`SELECT pg_advisory_unlock(${LOCK_SPACE}, ${lockKey("migrate")})`.catch(() => {});
    reserved.release();
  }
}
