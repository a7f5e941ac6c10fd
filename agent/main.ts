// vigil-agent: registers with a Vigil server once, then reports this machine's metrics at an interval, and runs the
// checks an admin assigned to it.
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { VERSION } from "../server/version";
import { Collector } from "./collect";
import { ContainerCollector } from "./collect/containers";
import { defaultConfigPath, readConfig, SYSTEM_CONFIG_PATH } from "./config";
import { AgentError, EXIT_USAGE, exitWith, installCrashHandlers } from "./errors";
import { ProbeRunner } from "./probes";
import { register } from "./register";
import { Reporter, backoff } from "./report";

// Before anything else: whatever goes wrong from here on is one line on stderr, never a stack or the binary's source.
installCrashHandlers();

const HELP = `vigil-agent ${VERSION}: reports CPU, memory, disk, network and load to a Vigil server, and runs the
monitor checks (HTTP, TCP, DNS, ping) an admin assigns to it there, from this machine's network.

Usage:
  vigil-agent register --server URL --token TOKEN [--name NAME] [--config PATH]
  vigil-agent run [--interval SECONDS] [--config PATH] [--disks LIST] [--interfaces LIST]
  vigil-agent --version | --help

Options (each also read from the environment variable in brackets):
  --server URL         the Vigil server, e.g. https://vigil.example.com   [VIGIL_SERVER]
  --token TOKEN        one-time registration token from /agents/create      [VIGIL_TOKEN]
  --name NAME          display name (default: the hostname)                 [VIGIL_AGENT_NAME]
  --config PATH        credential file                                      [VIGIL_AGENT_CONFIG]
                       (default ${SYSTEM_CONFIG_PATH} as root, else ~/.config/vigil-agent/agent.json;
                       here ${defaultConfigPath()}). register checks it can write it before using the token
  --interval SECONDS   seconds between samples, 1-3600 (default 10)         [VIGIL_INTERVAL]
  --disks LIST         comma-separated mount points or devices to report    [VIGIL_DISKS]
  --interfaces LIST    comma-separated network interfaces to report         [VIGIL_INTERFACES]
  --buffer N           samples kept while the server is unreachable (default 2160 = 6 h at 10 s) [VIGIL_BUFFER]
  --docker-socket PATH Docker or Podman API socket to list containers from, or "off"     [VIGIL_DOCKER_SOCKET]
                       (default: the first of /var/run/docker.sock, /run/podman/podman.sock,
                       $XDG_RUNTIME_DIR/podman/podman.sock that exists; no root needed, the docker group is)

Assigned checks run with the server's own check modules and its address policy; their results wait in
probe-results.json beside the --config file until the server has them, so an outage or a restart loses none.
`;

const OPTION_ENV = {
  server: "VIGIL_SERVER",
  token: "VIGIL_TOKEN",
  name: "VIGIL_AGENT_NAME",
  config: "VIGIL_AGENT_CONFIG",
  interval: "VIGIL_INTERVAL",
  disks: "VIGIL_DISKS",
  interfaces: "VIGIL_INTERFACES",
  buffer: "VIGIL_BUFFER",
  "docker-socket": "VIGIL_DOCKER_SOCKET",
} as const;

/** How often the agent looks at its containers. */
const CONTAINERS_EVERY_MS = 30_000;

/** The agent asks for its check assignments at least this often, even when no report's reply says they changed. */
const PROBES_EVERY_MS = 60_000;

/** Exit code for "this agent is no longer accepted": the systemd unit does not restart on it. */
export const EXIT_REVOKED = 78;

function fail(message: string, code = EXIT_USAGE): never {
  throw new AgentError(message, code);
}

function options(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...Object.fromEntries(Object.keys(OPTION_ENV).map((k) => [k, { type: "string" as const }])),
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  const get = (key: keyof typeof OPTION_ENV) => ((values as Record<string, unknown>)[key] as string | undefined) ?? process.env[OPTION_ENV[key]];
  const list = (key: "disks" | "interfaces") => get(key)?.split(",").map((s) => s.trim()).filter(Boolean);
  return { values, positionals, get, list };
}

/**
 * VIGIL_PROC_ROOT (for tests, deliberately not in --help): a directory read as this machine's file-system root for
 * /proc, /etc/os-release and the mount points statfs reads, so a fixture can stand in for a big host.
 */
const procRoot = () => process.env.VIGIL_PROC_ROOT || undefined;

async function registerCommand(opts: ReturnType<typeof options>) {
  const collector = new Collector({ agentVersion: VERSION, procRoot: procRoot() });
  const line = await register({
    server: opts.get("server") ?? fail("--server is required"),
    token: opts.get("token") ?? fail("--token is required"),
    name: opts.get("name"),
    configPath: opts.get("config") ?? defaultConfigPath(),
    host: () => collector.host(),
  });
  console.log(line);
}

async function run(opts: ReturnType<typeof options>) {
  const configPath = opts.get("config") ?? defaultConfigPath();
  const config = readConfig(configPath);
  const interval = Number(opts.get("interval") ?? 10);
  if (!Number.isInteger(interval) || interval < 1 || interval > 3600) fail("--interval must be a whole number of seconds, 1-3600");
  const capacity = Number(opts.get("buffer") ?? 2160);
  if (!Number.isInteger(capacity) || capacity < 1) fail("--buffer must be a positive integer");

  const collector = new Collector({ agentVersion: VERSION, disks: opts.list("disks"), interfaces: opts.list("interfaces"), procRoot: procRoot() });
  const reporter = new Reporter({ server: config.server, credential: config.credential, capacity, interval });
  const containers = new ContainerCollector(opts.get("docker-socket"));
  let containersAt = 0;
  // Unsent check results live beside the credential: the directory the agent can write (0700 for root's).
  const probes = new ProbeRunner({ statePath: join(dirname(configPath), "probe-results.json") });
  let probesAt = 0;
  let probesNotBefore = 0;
  let probesAttempt = 0;
  let probesSyncing = false;
  /** Sends the check results and learns the assignments, beside the reports (a slow call never holds them up). */
  const syncProbes = async () => {
    probesSyncing = true;
    probesAt = Date.now();
    try {
      const synced = await probes.sync(config.server, config.credential);
      if (synced === "revoked") revoked();
      // After a failed sync, not again before its back-off; a server without the call is asked once a minute.
      if (synced === "retry") probesNotBefore = Date.now() + backoff(probesAttempt++);
      else if (synced === "unsupported") probesNotBefore = Date.now() + PROBES_EVERY_MS;
      else probesAttempt = 0;
    } catch (e) {
      console.error(`check results not sent: ${(e as Error)?.message ?? e}`);
      probesNotBefore = Date.now() + backoff(probesAttempt++);
    } finally {
      probesSyncing = false;
    }
  };
  // Unsent check results are written before exiting (they are also written within a second of every change).
  const revoked = (): never => {
    probes.stop();
    process.exit(EXIT_REVOKED);
  };
  const stop = () => {
    probes.stop();
    process.exit(0);
  };
  console.log(`vigil-agent ${VERSION} reporting to ${config.server} every ${interval} s`);

  let attempt = 0;
  let nextTry = 0;
  let flushing = false;
  const tick = async () => {
    reporter.add(collector.sample());
    if (flushing || Date.now() < nextTry) return;
    flushing = true;
    try {
      // Containers at most every 30 s (each look costs the engine a stats read per running container); reports in
      // between carry none and the server keeps the last list.
      let listed: Awaited<ReturnType<ContainerCollector["snapshot"]>> | undefined;
      if (Date.now() - containersAt >= CONTAINERS_EVERY_MS) {
        listed = await containers.snapshot();
        containersAt = Date.now();
      }
      const outcome = await reporter.flush(collector.host(), listed);
      if (outcome === "revoked") revoked();
      if (outcome === "retry") nextTry = Date.now() + backoff(attempt++);
      else {
        attempt = 0;
        // Checks from agents: when the report's reply says the assignments changed, when results wait, or every
        // minute (an older server's reply says nothing; a server without the call costs one 404 a minute).
        const stated = reporter.lastProbesVersion;
        const due = (stated !== undefined && stated !== probes.version) || probes.pending > 0 || Date.now() - probesAt >= PROBES_EVERY_MS;
        if (due && !probesSyncing && Date.now() >= probesNotBefore) void syncProbes();
      }
    } finally {
      flushing = false;
    }
  };
  // Fixed cadence: each tick is scheduled from the previous one's planned time, not from when its send ended.
  let next = Date.now() + interval * 1000;
  const loop = () => {
    void tick();
    next += interval * 1000;
    if (next < Date.now()) next = Date.now() + interval * 1000; // the machine slept: do not burst
    setTimeout(loop, next - Date.now());
  };
  setTimeout(loop, 1000); // first sample soon, once the CPU and network counters have a baseline
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function main() {
  let opts;
  try {
    opts = options(process.argv.slice(2));
  } catch (e) {
    fail(`${(e as Error).message}\n\n${HELP}`);
  }
  if (opts.values.version) return console.log(VERSION);
  const command = opts.positionals[0];
  if (opts.values.help || !command) return console.log(HELP);
  if (command === "register") return registerCommand(opts);
  if (command === "run") return run(opts);
  fail(`unknown command "${command}"\n\n${HELP}`);
}

await main().catch(exitWith);
