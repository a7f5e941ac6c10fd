// The postgres type: connect with Bun's own PostgreSQL client, run the query, assert a value of its first row.
//
// One check, one connection (max: 1), closed after it: nothing is pooled across checks, so a query cannot leave a
// transaction (or a session setting) open for the next one, and a server that went away is seen at once. Every
// connection setting is passed, none left to Bun's defaults: Bun fills missing ones from the environment (PGPASSWORD,
// DATABASE_URL, PGOPTIONS…), which would hand Vigil's own settings to whatever server a monitor names.
import { SQL } from "bun";
import { literalAddress } from "../../../net/targets";
import { CHECK_ERROR_TEXT, protocolError, queryFailedError } from "../../check-errors";
import { describeError } from "../network-errors";
import { scrub, secretValues, type SettingsCheckType } from "../settings-type";
import { normaliseSqlSettings, runSqlCheck, sqlTarget, type SqlClient, type SqlSettings } from "../sql-query";
import { postgresSettings } from "./settings";

type DriverError = { code?: string; errno?: string; message?: string };

function postgresClient(settings: SqlSettings): SqlClient {
  let connected = false;
  return {
    open(address, statementTimeoutMs) {
      const name = literalAddress(settings.host) ? undefined : settings.host;
      return new SQL({
        adapter: "postgres",
        hostname: address,
        port: settings.port,
        username: settings.username,
        // A function: an empty password stays empty (an empty string would be taken from the environment).
        password: () => settings.password,
        database: settings.database || settings.username,
        // "verify" checks the certificate against the name the monitor gives (we connect to its checked address).
        tls: settings.tls === "verify" ? { rejectUnauthorized: true, ...(name ? { serverName: name } : {}) } : settings.tls,
        // SCRAM tied to the TLS session where the server offers it: a TLS middleman cannot pass the login on.
        channelBinding: "prefer",
        max: 1,
        prepare: false,
        connectionTimeout: Math.ceil(statementTimeoutMs / 1000) + 1,
        idleTimeout: 0,
        maxLifetime: 0,
        connection: {
          application_name: "Vigil",
          options: "",
          // The server stops the query, and any transaction it opened, within the check's time.
          statement_timeout: statementTimeoutMs,
          idle_in_transaction_session_timeout: statementTimeoutMs,
        },
        onconnect: () => {
          connected = true;
        },
      });
    },
    run: (sql, query) => sql.unsafe(query),
    describe(error, seconds) {
      const e = error as DriverError;
      const message = e?.message ?? String(error);
      if (e?.code === "ERR_POSTGRES_SERVER_ERROR") {
        // Class 28: invalid authorization (a wrong password, a user pg_hba.conf refuses).
        if (e.errno?.startsWith("28")) return CHECK_ERROR_TEXT.AUTH_FAILED;
        return connected ? queryFailedError(message) : protocolError("PostgreSQL", message);
      }
      switch (e?.code) {
        case "ERR_POSTGRES_CONNECTION_REFUSED":
          return CHECK_ERROR_TEXT.REFUSED;
        case "ERR_POSTGRES_CONNECTION_CLOSED":
          return CHECK_ERROR_TEXT.RESET;
        case "ERR_POSTGRES_CONNECTION_TIMEOUT":
          return CHECK_ERROR_TEXT.CONNECT_TIMEOUT;
        case "ERR_POSTGRES_TLS_NOT_AVAILABLE":
          return protocolError("PostgreSQL", "the server does not offer TLS");
        case "ERR_POSTGRES_TLS_UPGRADE_FAILED":
          return CHECK_ERROR_TEXT.TLS_HANDSHAKE;
        case "ERR_POSTGRES_SYNTAX_ERROR":
          return queryFailedError(message);
      }
      if (e?.code?.startsWith("ERR_POSTGRES_")) return protocolError("PostgreSQL", message);
      return describeError(error, seconds);
    },
  };
}

export const postgresType: SettingsCheckType<typeof postgresSettings> = {
  type: "postgres",
  schema: postgresSettings,
  runsOnAgents: false,
  normalise: normaliseSqlSettings,
  check: (settings, ctx) =>
    runSqlCheck(settings, ctx, postgresClient(settings), (sentence) => scrub(sentence, secretValues(postgresSettings, settings))),
  target: sqlTarget,
};
