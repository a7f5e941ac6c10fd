// The settings the SQL database types (postgres, mysql) share: where to connect, how to log in, what to run and what
// to expect of its first row. TypeBox only: the UI imports it through the types' settings.ts.
//
// One clear shape: form fields, not a connection string. With a host field the address policy judges exactly the
// host that is reached; a connection string can also name a unix socket (?host=/run/…, ?socket=…), several hosts or
// its own TLS mode, each a way around the policy or the TLS choice, and Bun reads such parameters itself. A user with
// a URL copies its parts into the fields (an importer can split one with `new URL`).
import { Type } from "@sinclair/typebox";

export const SQL_OPERATORS = ["==", "!=", "contains", "<", ">", "<=", ">="] as const;
export type SqlOperator = (typeof SQL_OPERATORS)[number];
/** The operators that compare numbers: their expected value must be one. */
export const NUMERIC_OPERATORS: readonly SqlOperator[] = ["<", ">", "<=", ">="];

export function sqlSettingsFields(defaults: { port: number }) {
  return {
    host: Type.String({
      minLength: 1,
      maxLength: 253,
      host: true,
      error: "Host must be a host name or an IP address, without scheme, port or path (db.example.com, 10.0.0.5, ::1)",
    }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: defaults.port, error: "Port must be a whole number from 1 to 65535" }),
    database: Type.String({ maxLength: 128, default: "", error: "Database must be a name of at most 128 characters" }),
    username: Type.String({ minLength: 1, maxLength: 128, error: "User name is required (at most 128 characters)" }),
    password: Type.String({ maxLength: 1024, default: "", secret: true, error: "Password must be at most 1024 characters" }),
    tls: Type.Union([Type.Literal("disable"), Type.Literal("require"), Type.Literal("verify")], {
      default: "disable",
      error: "TLS must be disable, require or verify",
    }),
    query: Type.String({ minLength: 1, maxLength: 10_000, default: "SELECT 1", format: "textarea", error: "Query is required (at most 10 000 characters)" }),
    column: Type.String({ maxLength: 128, default: "", error: "Column must be a name of at most 128 characters" }),
    operator: Type.Union(
      SQL_OPERATORS.map((op) => Type.Literal(op)),
      { default: "==", error: `Operator must be one of ${SQL_OPERATORS.join(" ")}` },
    ),
    expected: Type.String({ maxLength: 1024, default: "", error: "Expected value must be at most 1024 characters" }),
  };
}
