// `vigil install-service`: runs Vigil as a systemd service under its own user, data in /var/lib/vigil, with the
// sandboxing systemd offers a network daemon that only writes its data dir.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ServiceOptions {
  user: string;
  dataDir: string;
  host: string;
  port: number;
  /** The executable the unit starts. */
  binary: string;
  /** More `vigil serve` flags (e.g. --public-url …). */
  extraArgs: string[];
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, "\\$1")}"`);

export function serviceUnit(o: ServiceOptions): string {
  const exec = [o.binary, "serve", "--data-dir", o.dataDir, "--host", o.host, "--port", String(o.port), ...o.extraArgs].map(quote).join(" ");
  const lowPort = o.port > 0 && o.port < 1024;
  return `[Unit]
Description=Vigil uptime and server monitor
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${o.user}
Group=${o.user}
ExecStart=${exec}
Restart=on-failure
RestartSec=5
# SIGTERM: Vigil writes what is pending and closes the database.
KillSignal=SIGTERM
TimeoutStopSec=30
UMask=0077
LimitNOFILE=65536
NoNewPrivileges=true
ProtectSystem=strict
ReadWritePaths=${o.dataDir}
ProtectHome=true
PrivateTmp=true
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectKernelLogs=true
ProtectControlGroups=true
ProtectClock=true
ProtectHostname=true
RestrictSUIDSGID=true
RestrictRealtime=true
RestrictNamespaces=true
LockPersonality=true
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
CapabilityBoundingSet=${lowPort ? "CAP_NET_BIND_SERVICE" : ""}
AmbientCapabilities=${lowPort ? "CAP_NET_BIND_SERVICE" : ""}

[Install]
WantedBy=multi-user.target
`;
}

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${(r.stderr || r.error?.message || "").trim()}`);
  return r.stdout;
};

/** Creates the user and data dir, writes the unit, and (unless `start` is false) enables and starts it. */
export function installService(o: ServiceOptions, { unitDir = "/etc/systemd/system", start = true, log = console.log } = {}): string {
  if (process.getuid?.() !== 0) throw new Error("install-service needs root (run it with sudo), or use --print to see the unit.");
  if (!existsSync(o.binary)) throw new Error(`No executable at ${o.binary}: pass --binary /path/to/vigil.`);
  if (spawnSync("id", ["-u", o.user]).status !== 0) {
    run("useradd", ["--system", "--home-dir", o.dataDir, "--no-create-home", "--shell", "/usr/sbin/nologin", o.user]);
    log(`created system user ${o.user}`);
  }
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const uid = Number(run("id", ["-u", o.user]).trim());
  const gid = Number(run("id", ["-g", o.user]).trim());
  chownSync(o.dataDir, uid, gid);
  const unitFile = join(unitDir, "vigil.service");
  writeFileSync(unitFile, serviceUnit(o), { mode: 0o644 });
  log(`wrote ${unitFile}`);
  if (start) {
    run("systemctl", ["daemon-reload"]);
    run("systemctl", ["enable", "--now", "vigil.service"]);
    log(`vigil.service enabled and started: http://${o.host}:${o.port}  (logs: journalctl -u vigil -f)`);
  }
  return unitFile;
}
