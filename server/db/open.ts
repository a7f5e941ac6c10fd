// Opens the store: the embedded SQLite file (the default) or a PostgreSQL database named by a postgres:// URL.
import { isPostgresUrl, type Db } from "./database";
import { openPostgres, type PostgresOptions } from "./postgres";
import { openSqlite } from "./sqlite";

export type { Db } from "./database";
export { DatabaseUnavailableError, NewerDatabaseError } from "./errors";
export { newestKnownMigration, schemaVersion } from "./sqlite";

/**
 * Opens `location` (a SQLite file path, ":memory:", or postgres://…) and brings its schema up to date; a database
 * written by a newer Vigil is refused (NewerDatabaseError), an unreachable one is DatabaseUnavailableError.
 */
export async function openDatabase(location: string, options: PostgresOptions & { onSlowTx?: (message: string) => void } = {}): Promise<Db> {
  return isPostgresUrl(location) ? openPostgres(location, options) : openSqlite(location, options);
}
