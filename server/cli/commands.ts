// The subcommands beside `vigil serve`: backup, restore, reset-password, install-service, migrate, import, config. Each takes
// --data-dir (or VIGIL_DATA_DIR) and --database-url (or VIGIL_DATABASE_URL) like the server where they apply, and has
// its own --help. They return an exit code.
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isPostgresUrl, redactUrl } from "../db/database";
import { openDatabase } from "../db/open";
import { backupDatabase } from "./backup";
import { configCommand } from "./config";
import { databaseFile } from "./data-dir";
import { importKuma, terminalQuestion } from "./import";
import { installService, serviceUnit } from "./install-service";
import { migrateToPostgres, progressPrinter, sessionsLine } from "./migrate";
import { resetPassword } from "./reset-password";
import { restoreDatabase } from "./restore";

export const SUBCOMMANDS = ["serve", "backup", "restore", "reset-password", "install-service", "migrate", "import", "config"] as const;

const DATA_DIR = "  --data-dir <dir>    VIGIL_DATA_DIR: the server's data directory (default: ./data)";
const DATABASE_URL = "  --database-url <u>  VIGIL_DATABASE_URL: the server's PostgreSQL database (postgres://…), when it uses one";
const SQLITE_ONLY = (what: string) =>
  `Works on the SQLite database of a data dir only: with --database-url (or VIGIL_DATABASE_URL) use PostgreSQL's own tools (${what}).`;

export const HELP: Record<Exclude<(typeof SUBCOMMANDS)[number], "serve">, string> = {
  backup: [
    "Usage: vigil backup <file> [--data-dir <dir>]",
    "",
    "Writes a consistent copy of the database to <file> (never overwrites), safe while the server runs.",
    SQLITE_ONLY("pg_dump"),
    "",
    DATA_DIR,
  ].join("\n"),
  restore: [
    "Usage: vigil restore <file> [--data-dir <dir>]",
    "",
    "Replaces the database with a backup. Refused while a server uses the data dir, or when <file> is damaged, not a",
    "Vigil database, or from a newer Vigil. The replaced database is kept as vigil.db.before-restore-<time>.",
    SQLITE_ONLY("pg_restore"),
    "",
    DATA_DIR,
  ].join("\n"),
  "reset-password": [
    "Usage: vigil reset-password <username> [--data-dir <dir> | --database-url <url>]",
    "",
    "Sets a new random password for the account, signs it out everywhere, and prints the password once.",
    "",
    DATA_DIR,
    DATABASE_URL,
  ].join("\n"),
  migrate: [
    "Usage: vigil migrate --from <sqlite file> --to <postgres url>",
    "",
    "Copies an instance from its SQLite database (e.g. data/vigil.db) into an empty PostgreSQL database (14+), which",
    "is created and migrated if needed: every table in one transaction (a failure leaves the target empty), each",
    "table's row count checked. The session secret (jwt-secret beside the file) comes along, so nobody is signed out.",
    "Refused while a server uses the SQLite file, and for a target that holds any row.",
    "Then start Vigil with --database-url <postgres url>.",
    "",
    "  --from <file>       The SQLite database to copy (the server stopped)",
    "  --to <url>          postgres://user:password@host:5432/db (`?schema=name` for a schema other than the default)",
  ].join("\n"),
  import: [
    "Usage: vigil import kuma <path> [--yes] [--history] [--data-dir <dir> | --database-url <url>]",
    "",
    "Brings an Uptime Kuma instance into Vigil. <path> is Kuma's data directory, its kuma.db (Kuma 1.23.x or 2.x; stop",
    "Kuma first), or a Kuma 1.x backup (.json). Prints what will be created, updated, and what cannot come across and",
    "why, then asks before applying it, all in one transaction. Importing again updates what the last import made.",
    "Refused while a server uses the data dir (SQLite): stop Vigil, import, start it again.",
    "",
    "  --yes               Apply without asking (for scripts)",
    "  --history           Also bring Kuma's heartbeats into the check history",
    "  --block-private-targets  VIGIL_BLOCK_PRIVATE_TARGETS=true: refuse monitors of private addresses, as the server would",
    "  --raw-retention-days <n>  VIGIL_RAW_RETENTION_DAYS: the server's raw check retention (default 7): older history goes to rollups",
    DATA_DIR,
    DATABASE_URL,
  ].join("\n"),
  config: [
    "Usage: vigil config export [--with-secrets] [-o <file>]",
    "       vigil config plan <file> [--prune]",
    "       vigil config apply <file> [--prune] [--yes]",
    "",
    "Monitors, groups, tag colours, notification channels, status pages and maintenance windows as one YAML file",
    "(docs/config-as-code.md). export writes them (secrets as",
    "${ENV_NAME} references unless --with-secrets); plan prints what applying <file> would create, change (field by",
    "field) and delete, and exits 2 when there are changes, 0 when none (a CI drift check); apply prints the plan,",
    "asks, and applies it in one transaction. ${NAME} references in <file> are read from the environment.",
    "",
    "  --url <url>         VIGIL_URL: the running Vigil to work through (recommended: it re-reads what changed)",
    "  --token <token>     VIGIL_TOKEN: an admin's API token (scope write) for --url",
    "  --prune             Also delete managed objects the file no longer has (never objects no file managed)",
    "  --yes               Apply without asking (for scripts)",
    "  --with-secrets      export: secrets in clear (a signed-in admin or the database, not an API token)",
    "  -o, --output <file> export: write to <file> instead of standard output",
    "  --block-private-targets  VIGIL_BLOCK_PRIVATE_TARGETS=true: without --url, refuse private addresses as the server would",
    "Without --url it works on the database (refused while a server uses the SQLite data dir):",
    DATA_DIR,
    DATABASE_URL,
  ].join("\n"),
  "install-service": [
    "Usage: sudo vigil install-service [options] [-- <more vigil serve flags>]",
    "",
    "Installs Vigil as the systemd service vigil.service: a system user, its data dir, a hardened unit; then enables",
    "and starts it.",
    "",
    "  --user <name>       System user to run as (default: vigil; created when missing)",
    "  --data-dir <dir>    Data directory (default: /var/lib/vigil)",
    "  --host <address>    Address to bind (default: 127.0.0.1; 0.0.0.0 without a reverse proxy)",
    "  --port <port>       HTTP port (default: 3000)",
    "  --binary <path>     The executable the service runs (default: this one)",
    "  --unit-dir <dir>    Where the unit goes (default: /etc/systemd/system)",
    "  --no-start          Write everything, but do not enable or start the service",
    "  --print             Only print the unit; change nothing",
  ].join("\n"),
};

const dataDirOf = (value: string | undefined) => resolve(value ?? process.env.VIGIL_DATA_DIR ?? "./data");

/** The PostgreSQL database the server is configured with (flag, then environment), or undefined for SQLite. */
function databaseUrlOf(value: string | undefined): string | undefined {
  const url = value || process.env.VIGIL_DATABASE_URL || undefined;
  if (url !== undefined && !isPostgresUrl(url)) throw new Error("Invalid --database-url: use postgres://user:password@host:5432/database");
  return url;
}

/** A database URL to print: without its password (redactUrl's mask comes out percent-encoded from URL). */
function shown(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString();
  } catch {
    return redactUrl(url);
  }
}

/** backup and restore copy a SQLite file: on PostgreSQL they refuse, pointing at its own tools. */
function refuseOnPostgres(name: "backup" | "restore", url: string | undefined) {
  if (url === undefined) return;
  const tool = name === "backup" ? "pg_dump" : "pg_restore";
  throw new Error(
    `this Vigil keeps its data in PostgreSQL (${shown(url)}); vigil ${name} works on a SQLite data dir only. Use ${tool} to ${name === "backup" ? "back up" : "restore"} a PostgreSQL database.`,
  );
}

/** Runs a subcommand (argv without it); returns the process exit code. */
export async function runSubcommand(name: Exclude<(typeof SUBCOMMANDS)[number], "serve">, argv: string[]): Promise<number> {
  const isService = name === "install-service";
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      "data-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
      ...(isService ? {} : { "database-url": { type: "string" } }),
      ...(name === "migrate" ? { from: { type: "string" }, to: { type: "string" } } : {}),
      ...(name === "import" ? { yes: { type: "boolean", short: "y" }, history: { type: "boolean" }, "block-private-targets": { type: "boolean" }, "raw-retention-days": { type: "string" } } : {}),
      ...(name === "config"
        ? { url: { type: "string" }, token: { type: "string" }, prune: { type: "boolean" }, yes: { type: "boolean", short: "y" }, "with-secrets": { type: "boolean" }, output: { type: "string", short: "o" }, "block-private-targets": { type: "boolean" } }
        : {}),
      ...(isService
        ? { user: { type: "string" }, host: { type: "string" }, port: { type: "string" }, binary: { type: "string" }, "unit-dir": { type: "string" }, "no-start": { type: "boolean" }, print: { type: "boolean" } }
        : {}),
    },
  });
  if (values.help) {
    console.log(HELP[name]);
    return 0;
  }
  const arg = positionals[0];
  switch (name) {
    case "backup": {
      if (!arg) return usage(name);
      refuseOnPostgres(name, databaseUrlOf(values["database-url"] as string | undefined));
      const { file, bytes } = backupDatabase(dataDirOf(values["data-dir"]), arg);
      console.log(`backup written to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
      return 0;
    }
    case "restore": {
      if (!arg) return usage(name);
      refuseOnPostgres(name, databaseUrlOf(values["database-url"] as string | undefined));
      const dataDir = dataDirOf(values["data-dir"]);
      const { kept } = restoreDatabase(dataDir, arg);
      console.log(`restored ${resolve(arg)} into ${databaseFile(dataDir)}${kept ? `; the previous database is kept as ${kept}` : ""}`);
      return 0;
    }
    case "reset-password": {
      if (!arg) return usage(name);
      const url = databaseUrlOf(values["database-url"] as string | undefined);
      const db = await openDatabase(url ?? databaseFile(dataDirOf(values["data-dir"])), { max: 2 });
      try {
        const r = await resetPassword(db, arg);
        console.log(`New password for ${r.username}: ${r.password}`);
        console.log("Every session of this account has been signed out. Sign in with it, then change it on the profile page.");
        if (r.disabled) console.log("Note: this account is disabled; another admin must enable it on /users.");
      } finally {
        await db.close();
      }
      return 0;
    }
    case "migrate": {
      const from = values.from as string | undefined;
      const to = values.to as string | undefined;
      if (!from || !to || positionals.length > 0) {
        const missing = [!from && "--from <sqlite file>", !to && "--to <postgres url>"].filter(Boolean).join(" and ");
        console.error(`vigil migrate: ${missing ? `missing ${missing}` : `unexpected argument ${positionals[0]}`}\n\n${HELP.migrate}`);
        return 2;
      }
      if (!isPostgresUrl(to)) {
        console.error(`vigil migrate: --to must be a PostgreSQL URL (postgres://user:password@host:5432/db), not ${to}\n\n${HELP.migrate}`);
        return 2;
      }
      const source = resolve(from);
      console.log(`Copying ${source} into ${shown(to)}`);
      const report = await migrateToPostgres(source, to, progressPrinter());
      console.log(`Migrated ${report.rows.toLocaleString("en-US")} rows in ${report.tables.length} tables in ${(report.ms / 1000).toFixed(1)} s.`);
      console.log(sessionsLine(report.sessionsKept, dirname(source)));
      console.log(`Start Vigil with --database-url (or VIGIL_DATABASE_URL) set to this URL to use it; ${source} is left as it was.`);
      return 0;
    }
    case "import": {
      if (positionals[0] !== "kuma" || !positionals[1] || positionals.length > 2) return usage(name);
      const blockPrivate = values["block-private-targets"] === true || process.env.VIGIL_BLOCK_PRIVATE_TARGETS === "true";
      const retention = (values["raw-retention-days"] as string | undefined) ?? process.env.VIGIL_RAW_RETENTION_DAYS;
      const rawRetentionDays = retention === undefined ? undefined : Number(retention);
      if (rawRetentionDays !== undefined && (!Number.isInteger(rawRetentionDays) || rawRetentionDays < 1 || rawRetentionDays > 365)) {
        throw new Error(`Invalid --raw-retention-days: ${retention} (a whole number of days from 1 to 365, as the server takes)`);
      }
      return importKuma({
        path: positionals[1],
        dataDir: dataDirOf(values["data-dir"]),
        databaseUrl: databaseUrlOf(values["database-url"] as string | undefined),
        yes: values.yes === true,
        history: values.history === true,
        rawRetentionDays,
        targets: { allowPrivate: !blockPrivate },
        ask: terminalQuestion(),
      });
    }
    case "config": {
      const action = positionals[0];
      if ((action !== "export" && action !== "plan" && action !== "apply") || (action === "export" ? positionals.length !== 1 : positionals.length !== 2)) return usage(name);
      const url = (values.url as string | undefined) || process.env.VIGIL_URL || undefined;
      return configCommand({
        action,
        file: action === "export" ? (values.output as string | undefined) : positionals[1],
        prune: values.prune === true,
        yes: values.yes === true,
        withSecrets: values["with-secrets"] === true,
        url,
        token: (values.token as string | undefined) || process.env.VIGIL_TOKEN || undefined,
        dataDir: dataDirOf(values["data-dir"]),
        databaseUrl: url ? undefined : databaseUrlOf(values["database-url"] as string | undefined),
        targets: { allowPrivate: !(values["block-private-targets"] === true || process.env.VIGIL_BLOCK_PRIVATE_TARGETS === "true") },
        env: process.env,
        ask: terminalQuestion(),
      });
    }
    case "install-service": {
      const port = Number(values.port ?? 3000);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Invalid port: ${values.port}`);
      const options = {
        user: (values.user as string | undefined) ?? "vigil",
        dataDir: resolve((values["data-dir"] as string | undefined) ?? "/var/lib/vigil"),
        host: (values.host as string | undefined) ?? "127.0.0.1",
        port,
        binary: resolve((values.binary as string | undefined) ?? process.execPath),
        extraArgs: positionals,
      };
      if (values.print) {
        process.stdout.write(serviceUnit(options));
        return 0;
      }
      installService(options, { unitDir: (values["unit-dir"] as string | undefined) ?? undefined, start: !values["no-start"] });
      return 0;
    }
  }
}

function usage(name: keyof typeof HELP): number {
  console.error(HELP[name]);
  return 2;
}
