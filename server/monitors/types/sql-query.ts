// What the SQL database types (postgres, mysql) share: checking their settings, running one query on one connection
// within the monitor's timeout, and asserting a value of its first row. Each type supplies its client and its
// driver's error words.
import type { SQL } from "bun";
import type { Static } from "@sinclair/typebox";
import { badRequest } from "../../http/http-error";
import { literalProblem, type TargetPolicy } from "../../net/targets";
import { CHECK_ERROR_TEXT, queryFailedError, timeoutError, valueMismatchError } from "../check-errors";
import { normaliseTargetHost } from "./host";
import { reachHost } from "./reach";
import type { SettingsCheckContext, SettingsCheckResult } from "./settings-type";
import { NUMERIC_OPERATORS, type SqlOperator, type sqlSettingsFields } from "./sql-settings";

type Fields = ReturnType<typeof sqlSettingsFields>;
export type SqlSettings = { [K in keyof Fields]: Static<Fields[K]> };

/** normalise for both types: the host as tcp takes it, judged as written; a numeric operator needs a number. */
export function normaliseSqlSettings<S extends SqlSettings>(settings: S, policy: TargetPolicy): S {
  const host = normaliseTargetHost(settings.host);
  const problem = literalProblem(host, policy);
  if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
  const expected = settings.expected.trim();
  if (NUMERIC_OPERATORS.includes(settings.operator) && expected !== "" && !isNumber(expected)) {
    throw badRequest("INVALID_EXPECTED", `Expected value must be a number to compare with ${settings.operator}`);
  }
  return { ...settings, host, column: settings.column.trim() };
}

/** "db.example.com:5432/app", "[::1]:3306": what lists show (never a secret). */
export function sqlTarget(settings: SqlSettings): string {
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  return `${host}:${settings.port}${settings.database ? `/${settings.database}` : ""}`;
}

const isNumber = (text: string) => text.trim() !== "" && Number.isFinite(Number(text));

/** A value as text, the way the assertion compares it; null for SQL NULL. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return JSON.stringify(value);
}

function holds(actual: string | null, operator: SqlOperator, expected: string): boolean {
  if (actual === null) return operator === "!=";
  switch (operator) {
    case "==":
      return actual === expected;
    case "!=":
      return actual !== expected;
    case "contains":
      return actual.includes(expected);
  }
  if (!isNumber(actual)) return false;
  const [a, b] = [Number(actual), Number(expected)];
  return operator === "<" ? a < b : operator === ">" ? a > b : operator === "<=" ? a <= b : a >= b;
}

type Rows = Record<string, unknown>[] & { columns?: { name: string }[] | null };

/**
 * The rows to assert on: a query of several statements ("SET …; SELECT …") resolves to one result per statement,
 * and the last one with columns is what it answered (a trailing COMMIT or a procedure's status has none).
 */
function answer(result: unknown): Rows {
  const rows = result as Rows | Rows[];
  if (rows.length === 0 || !Array.isArray(rows[0])) return rows as Rows;
  const sets = rows as Rows[];
  return [...sets].reverse().find((r) => r.columns?.length) ?? sets[sets.length - 1]!;
}

/** null when the first row holds the expectation, else the error sentence. */
export function assertFirstRow(result: unknown, settings: Pick<SqlSettings, "column" | "operator" | "expected">): string | null {
  const expected = settings.expected.trim();
  if (expected === "") return null;
  const rows = answer(result);
  const row = rows[0];
  if (!row) return CHECK_ERROR_TEXT.QUERY_NO_ROWS;
  const names = rows.columns?.map((c) => c.name) ?? Object.keys(row);
  const column = settings.column || names[0];
  if (column === undefined || !(column in row)) return queryFailedError(`no column ${JSON.stringify(settings.column)} in the result`);
  const actual = asText(row[column]);
  if (holds(actual, settings.operator, expected)) return null;
  const shown = NUMERIC_OPERATORS.includes(settings.operator) ? expected : JSON.stringify(expected);
  return valueMismatchError(`${settings.operator} ${shown}`, actual === null ? "null" : JSON.stringify(actual));
}

export interface SqlClient {
  /** The client for one check: one connection to `address`, nothing read from the environment. */
  open(address: string, statementTimeoutMs: number): SQL;
  /** Runs the query on it (a type may set a statement timeout first). */
  run(sql: SQL, query: string, statementTimeoutMs: number): Promise<unknown>;
  /** The driver's error as a check-errors.ts sentence (not yet scrubbed of secrets). */
  describe(error: unknown, timeoutSeconds: number): string;
}

const stopped = (name: string) => Object.assign(new Error(name), { name });

/**
 * One check: the policy judges the host, then one connection runs the query and is closed, whatever happens. The
 * monitor's timeout bounds it all; a timeout or a stop closes the connection at once (the query's statement timeout
 * stops the server's work too).
 */
export async function runSqlCheck(
  settings: SqlSettings,
  ctx: SettingsCheckContext,
  client: SqlClient,
  scrub: (sentence: string) => string,
): Promise<SettingsCheckResult> {
  const started = performance.now();
  const seconds = ctx.timeoutMs / 1000;
  const down = (error: string, responseTime: number | null = null): SettingsCheckResult => ({ up: false, responseTime, error: scrub(error) });
  const reach = await reachHost(settings.host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return down(reach.error);
  const remaining = Math.max(1, Math.round(ctx.timeoutMs - (performance.now() - started)));
  let sql: SQL | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? stopped("AbortError");
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(stopped("TimeoutError")), remaining);
      onAbort = () => reject(ctx.signal.reason ?? stopped("AbortError"));
      ctx.signal.addEventListener("abort", onAbort, { once: true });
    });
    sql = client.open(reach.address, remaining);
    const result = await Promise.race([client.run(sql, settings.query, remaining), gaveUp]);
    const responseTime = Math.max(0, Math.round(performance.now() - started));
    const failed = assertFirstRow(result, settings);
    return failed ? down(failed, responseTime) : { up: true, responseTime, error: null };
  } catch (e) {
    const name = (e as { name?: string } | undefined)?.name;
    if (name === "TimeoutError" || statementTimedOut(e)) return down(timeoutError(seconds));
    if (name === "AbortError") return down(CHECK_ERROR_TEXT.CANCELLED);
    return down(client.describe(e, seconds));
  } finally {
    clearTimeout(timer);
    if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
    await sql?.close({ timeout: 0 }).catch(() => {});
  }
}

/**
 * The server's own statement timeout, set to the time the check has left, fired a moment before ours: the same
 * timeout, said the same way. PostgreSQL 57014 (canceling statement due to statement timeout), MariaDB 1969
 * (max_statement_time exceeded), MySQL 3024 (maximum statement execution time exceeded).
 */
function statementTimedOut(error: unknown): boolean {
  const e = error as { errno?: string | number; message?: string } | undefined;
  const code = String(e?.errno ?? "");
  if (code === "1969" || code === "3024") return true;
  return code === "57014" && /statement timeout/i.test(e?.message ?? "");
}
