// The subcommands beside `vigil serve`: backup, restore, reset-password, install-service. Each takes --data-dir (or
// VIGIL_DATA_DIR) like the server and has its own --help. They return an exit code.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../db/open";
import { backupDatabase } from "./backup";
import { databaseFile } from "./data-dir";
import { installService, serviceUnit } from "./install-service";
import { resetPassword } from "./reset-password";
import { restoreDatabase } from "./restore";

export const SUBCOMMANDS = ["serve", "backup", "restore", "reset-password", "install-service"] as const;

const DATA_DIR = "  --data-dir <dir>    VIGIL_DATA_DIR: the server's data directory (default: ./data)";

export const HELP: Record<Exclude<(typeof SUBCOMMANDS)[number], "serve">, string> = {
  backup: ["Usage: vigil backup <file> [--data-dir <dir>]", "", "Writes a consistent copy of the database to <file> (never overwrites), safe while the server runs.", "", DATA_DIR].join("\n"),
  restore: [
    "Usage: vigil restore <file> [--data-dir <dir>]",
    "",
    "Replaces the database with a backup. Refused while a server uses the data dir, or when <file> is damaged, not a",
    "Vigil database, or from a newer Vigil. The replaced database is kept as vigil.db.before-restore-<time>.",
    "",
    DATA_DIR,
  ].join("\n"),
  "reset-password": [
    "Usage: vigil reset-password <username> [--data-dir <dir>]",
    "",
    "Sets a new random password for the account, signs it out everywhere, and prints the password once.",
    "",
    DATA_DIR,
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
      const { file, bytes } = backupDatabase(dataDirOf(values["data-dir"]), arg);
      console.log(`backup written to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
      return 0;
    }
    case "restore": {
      if (!arg) return usage(name);
      const dataDir = dataDirOf(values["data-dir"]);
      const { kept } = restoreDatabase(dataDir, arg);
      console.log(`restored ${resolve(arg)} into ${databaseFile(dataDir)}${kept ? `; the previous database is kept as ${kept}` : ""}`);
      return 0;
    }
    case "reset-password": {
      if (!arg) return usage(name);
      const db = openDatabase(databaseFile(dataDirOf(values["data-dir"])));
      try {
        const r = await resetPassword(db, arg);
        console.log(`New password for ${r.username}: ${r.password}`);
        console.log("Every session of this account has been signed out. Sign in with it, then change it on the profile page.");
        if (r.disabled) console.log("Note: this account is disabled; another admin must enable it on /users.");
      } finally {
        db.$client.close();
      }
      return 0;
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
