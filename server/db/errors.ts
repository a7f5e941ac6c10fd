/** The database was written by a newer Vigil: this build refuses it rather than misread it. */
export class NewerDatabaseError extends Error {}

/** The database could not be reached or opened (a wrong URL, a server that is down, a refused login). */
export class DatabaseUnavailableError extends Error {}

/** Bun's SQL client losing or failing to get a connection: the server is down, restarting or out of reach. */
const CLIENT_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
/**
 * SQLSTATEs of a server that is there but not serving: class 08 (connection exception), 57P01–57P03 (shutting down,
 * crashed, starting up), 53300 (too many connections).
 */
const SERVER_STATE = /^(08...|57P0[123]|53300)$/;

/**
 * The error in `e`'s chain (drizzle's wrapper, ours, `cause` by `cause`) that says the database cannot be reached just
 * now, not that the query was wrong; undefined when there is none. A client should hear "try again shortly" for it.
 */
export function unavailableCause(e: unknown): (Error & { code?: unknown }) | undefined {
  for (let err = e as { code?: unknown; errno?: unknown; cause?: unknown } | undefined, depth = 0; err && typeof err === "object" && depth < 5; err = err.cause as typeof err, depth++) {
    if (err instanceof DatabaseUnavailableError) return err;
    if (typeof err.code === "string" && (CLIENT_CODES.has(err.code) || SERVER_STATE.test(err.code))) return err as Error;
    if (typeof err.errno === "string" && SERVER_STATE.test(err.errno)) return err as Error;
  }
  return undefined;
}

/** The SQLSTATE ("23514") somewhere in an error's chain (drizzle wraps the driver's error), or undefined. */
export function sqlState(e: unknown): string | undefined {
  for (let err = e as { code?: unknown; errno?: unknown; cause?: unknown } | undefined, depth = 0; err && typeof err === "object" && depth < 5; err = err.cause as typeof err, depth++) {
    for (const v of [err.errno, err.code]) if (typeof v === "string" && /^[0-9A-Z]{5}$/.test(v)) return v;
  }
  return undefined;
}
