import "./reexec"; // must stay the first import: it may start the process again with its runtime settings
import "./production"; // before Elysia loads
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { isProduction } from "elysia/error";
import { createApp, createServices } from "./app";
import { jwtSecret } from "./auth/secret-store";
import { runSubcommand, SUBCOMMANDS } from "./cli/commands";
import { claimDataDir } from "./cli/data-dir";
import { helpText, loadConfig, type Config } from "./config";
import { DatabaseUnavailableError, NewerDatabaseError, openDatabase, type Db } from "./db/open";
import { MAX_BODY_BYTES, MAX_UPLOAD_BYTES } from "./http/limits";
import { LISTEN_ALONE, listenFailure, listenProblem } from "./http/listen";
import { startServices, stopServices } from "./lifecycle";
import { createLogger } from "./log";
import { VERSION } from "./version";
import { runtimeEnvSettings } from "./runtime-env";

async function start(argv: string[]) {
  if (argv.includes("--help") || argv.includes("-h")) return console.log(helpText());
  if (argv.includes("--version") || argv.includes("-v")) return console.log(VERSION);

  let config: Config;
  try {
    config = loadConfig(argv);
  } catch (e) {
    console.error(`vigil: ${(e as Error).message}\n\n${helpText()}`);
    process.exit(2);
  }
  const log = createLogger(config.logLevel);
  // A port in use (another Vigil, say) ends the start before the data dir is created, claimed or migrated.
  const cannotListen = listenProblem(config.host, config.port);
  if (cannotListen) {
    console.error(cannotListen);
    process.exit(1);
  }
  // Everything Vigil writes (database, WAL, secret, backups) is for its own user alone.
  process.umask(0o077);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(config.dataDir, 0o700);
  // One server per data dir; `vigil restore` checks this too.
  let releaseDataDir: () => void;
  try {
    releaseDataDir = claimDataDir(config.dataDir);
  } catch (e) {
    log.error((e as Error).message);
    process.exit(1);
  }

  let db: Db;
  try {
    db = await openDatabase(config.databaseUrl ?? join(config.dataDir, "vigil.db"), { onSlowTx: (message) => log.warn(message) });
  } catch (e) {
    if (e instanceof NewerDatabaseError || e instanceof DatabaseUnavailableError) {
      log.error(e.message);
      process.exit(1);
    }
    throw e;
  }

  const secret = await jwtSecret(config, db);
  const services = await createServices(db, {
    log,
    secret,
    node: config.nodeName,
    monitors: { concurrency: config.checkConcurrency, rawRetentionDays: config.rawRetentionDays },
    targets: { allowPrivate: !config.blockPrivateTargets },
    notifications: { send: { endpoints: { telegram: config.telegramApi, resend: config.resendApi } }, publicUrl: config.publicUrl },
    // Hidden, for tests of real processes (server/escalation/two-nodes.test.ts): a shorter minute of the settings.
    minuteMs: config.testMinuteMs,
  });
  const app = createApp({ db, jwtSecret: secret, config, log, uiLive: process.env.VIGIL_UI_LIVE === "1", services });
  try {
    app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: MAX_UPLOAD_BYTES + MAX_BODY_BYTES, ...LISTEN_ALONE });
  } catch (e) {
    // Taken since the check above. Nothing has started yet: the database is closed and the data dir released.
    console.error(listenFailure(config.host, config.port, e));
    await db.close();
    releaseDataDir();
    process.exit(1);
  }
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${app.server!.port}`;
  // Every service with a timer, in order (server/lifecycle.ts); the log line names those running.
  const running = await startServices(services, { url });
  log.info(`Vigil ${VERSION} listening on ${url}`, { services: running.join(","), dataDir: config.dataDir, database: db.location, node: config.nodeName, role: services.cluster.role(), monitors: services.monitors.store.size, mode: isProduction ? "production" : "development", ...(process.execArgv.length ? { bunFlags: process.execArgv.join(" ") } : {}), runtimeEnv: runtimeEnvSettings(), ...(config.testMinuteMs ? { testMinuteMs: config.testMinuteMs } : {}) });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    await stopServices(services, async () => {
      // In-flight requests get 5 s; a client that holds its connection open does not hold up the shutdown.
      const stopped = await Promise.race([app.stop().then(() => true), Bun.sleep(5000).then(() => false)]);
      if (!stopped) app.server?.stop(true);
    });
    await db.close();
    releaseDataDir();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/** `vigil [serve] [options]`, or one of the maintenance subcommands (server/cli/). */
async function main(argv: string[]) {
  const [head, ...rest] = argv;
  if (head === "serve") return start(rest);
  const sub = SUBCOMMANDS.find((name) => name === head);
  if (sub === undefined || sub === "serve") return start(argv);
  try {
    process.exit(await runSubcommand(sub, rest));
  } catch (e) {
    console.error(`vigil ${sub}: ${(e as Error).message}`);
    process.exit(1);
  }
}

void main(process.argv.slice(2));
