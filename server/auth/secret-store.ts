// Where the session (JWT) secret lives when not given: a file in the data dir on SQLite, a settings row on
// PostgreSQL. Shared by the server's start-up and `vigil migrate`, which carries the file into the row.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Config } from "../config";
import { first, type Db } from "../db/database";

/** The file that holds a SQLite instance's secret, in its data dir (beside vigil.db). */
export const JWT_SECRET_FILE = "jwt-secret";
/** The settings key that holds a PostgreSQL instance's secret. */
export const JWT_SECRET_KEY = "jwt_secret";

/** The secret kept in a data dir, if there is one. */
export function secretInDir(dir: string): string | null {
  const file = join(dir, JWT_SECRET_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() || null : null;
}

/**
 * The JWT secret: given, or generated once and kept so sessions survive restarts: in the data dir (mode 0600) on
 * SQLite, in the database on PostgreSQL, where every node of a cluster must sign and check sessions alike.
 */
export async function jwtSecret(config: Pick<Config, "jwtSecret" | "dataDir">, db: Db): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (db.engine === "postgres") {
    const { settings } = db.t;
    await db.orm.insert(settings).values({ key: JWT_SECRET_KEY, value: randomBytes(48).toString("base64url") }).onConflictDoNothing();
    return (await first(db.orm.select().from(settings).where(eq(settings.key, JWT_SECRET_KEY))))!.value;
  }
  const kept = secretInDir(config.dataDir);
  if (kept) return kept;
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(join(config.dataDir, JWT_SECRET_FILE), secret + "\n", { mode: 0o600 });
  return secret;
}
