// The mysql type (MySQL and MariaDB): connect with Bun's own MySQL client, run the query, assert a value of its
// first row.
//
// One check, one connection (max: 1), closed after it: nothing is pooled across checks, so a query cannot leave a
// transaction (or a session setting) open for the next one, and a server that went away is seen at once. Every
// connection setting is passed, none left to Bun's defaults: Bun fills missing ones from the environment
// (DATABASE_URL, MYSQL_URL, MYSQL_DATABASE…), which would hand Vigil's own settings to whatever server a monitor names.
import { SQL } from "bun";
import { literalAddress } from "../../../net/targets";
import { CHECK_ERROR_TEXT, protocolError, queryFailedError } from "../../check-errors";
import { describeError } from "../network-errors";
import { scrub, secretValues, type SettingsCheckType } from "../settings-type";
import { normaliseSqlSettings, runSqlCheck, sqlTarget, type SqlClient, type SqlSettings } from "../sql-query";
import { mysqlSettings } from "./settings";

type DriverError = { code?: string; errno?: number; message?: string };

/** MySQL error numbers: access denied (1045), access denied without a password where one is needed (1698). */
const ACCESS_DENIED = new Set([1045, 1698]);
/** "Unknown system variable": the server is MySQL (no max_statement_time) or older than both timeouts. */
const UNKNOWN_VARIABLE = 1193;

/** Bounds the server's work on the query: MariaDB's max_statement_time (seconds), else MySQL's (ms, SELECT only). */
async function setStatementTimeout(sql: SQL, ms: number): Promise<void> {
  try {
    await sql.unsafe(`SET SESSION max_statement_time = ${(ms / 1000).toFixed(3)}`);
  } catch (e) {
    if ((e as DriverError).errno !== UNKNOWN_VARIABLE) throw e;
    try {
      await sql.unsafe(`SET SESSION max_execution_time = ${Math.round(ms)}`);
    } catch (e2) {
      if ((e2 as DriverError).errno !== UNKNOWN_VARIABLE) throw e2;
    }
  }
}

function mysqlClient(settings: SqlSettings): SqlClient {
  let connected = false;
  return {
    open(address, statementTimeoutMs) {
      const name = literalAddress(settings.host) ? undefined : settings.host;
      return new SQL({
        adapter: "mysql",
        hostname: address,
        port: settings.port,
        username: settings.username,
        // A function: an empty password stays empty (an empty string would be taken from the environment).
        password: () => settings.password,
        // No database selected cannot be said to Bun (it would read MYSQL_DATABASE): information_schema is there for
        // every account and holds nothing of the user's.
        database: settings.database || "information_schema",
        // "verify" checks the certificate against the name the monitor gives (we connect to its checked address).
        tls: settings.tls === "verify" ? { rejectUnauthorized: true, ...(name ? { serverName: name } : {}) } : settings.tls,
        max: 1,
        connectionTimeout: Math.ceil(statementTimeoutMs / 1000) + 1,
        idleTimeout: 0,
        maxLifetime: 0,
        onconnect: () => {
          connected = true;
        },
      });
    },
    async run(sql, query, statementTimeoutMs) {
      await setStatementTimeout(sql, statementTimeoutMs);
      return sql.unsafe(query);
    },
    describe(error, seconds) {
      const e = error as DriverError;
      const message = e?.message ?? String(error);
      if (e?.errno !== undefined && ACCESS_DENIED.has(e.errno)) return CHECK_ERROR_TEXT.AUTH_FAILED;
      switch (e?.code) {
        case "ERR_MYSQL_SERVER_ERROR":
        case "ERR_MYSQL_SYNTAX_ERROR":
          return connected ? queryFailedError(message) : protocolError("MySQL", message);
        case "ERR_MYSQL_AUTHENTICATION_FAILED":
          // Bun says this, with no server error number, when TLS is asked for and the server does not offer it.
          return settings.tls !== "disable" && e.errno === undefined
            ? protocolError("MySQL", "the server does not offer TLS")
            : CHECK_ERROR_TEXT.AUTH_FAILED;
        case "ERR_MYSQL_PUBLIC_KEY_RETRIEVAL_NOT_ALLOWED":
          return protocolError("MySQL", "the server wants the password sent over TLS (caching_sha2_password): set TLS to require");
        case "ERR_MYSQL_CONNECTION_REFUSED":
          return CHECK_ERROR_TEXT.REFUSED;
        case "ERR_MYSQL_CONNECTION_CLOSED":
          return CHECK_ERROR_TEXT.RESET;
        case "ERR_MYSQL_CONNECTION_TIMEOUT":
          return CHECK_ERROR_TEXT.CONNECT_TIMEOUT;
      }
      if (e?.code?.startsWith("ERR_MYSQL_")) return protocolError("MySQL", message);
      return describeError(error, seconds);
    },
  };
}

export const mysqlType: SettingsCheckType<typeof mysqlSettings> = {
  type: "mysql",
  schema: mysqlSettings,
  runsOnAgents: false,
  normalise: normaliseSqlSettings,
  check: (settings, ctx) => runSqlCheck(settings, ctx, mysqlClient(settings), (sentence) => scrub(sentence, secretValues(mysqlSettings, settings))),
  target: sqlTarget,
};
