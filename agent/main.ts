// vigil-agent: registers with a Vigil server once, then reports this machine's metrics at an interval.
import { parseArgs } from "node:util";
import { VERSION } from "../server/version";
import { Collector } from "./collect";
import { ContainerCollector } from "./collect/containers";
import { defaultConfigPath, readConfig, SYSTEM_CONFIG_PATH } from "./config";
import { AgentError, EXIT_USAGE, exitWith, installCrashHandlers } from "./errors";
import { register } from "./register";
import { Reporter, backoff } from "./report";

// Before anything else: whatever goes wrong from here on is one line on stderr, never a stack or the binary's source.
installCrashHandlers();

const HELP = `vigil-agent ${VERSION}: reports CPU, memory, disk, network and load to a Vigil server.

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
      if (outcome === "revoked") process.exit(EXIT_REVOKED);
      if (outcome === "retry") nextTry = Date.now() + backoff(attempt++);
      else attempt = 0;
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
  const stop = () => process.exit(0);
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
