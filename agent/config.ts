import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { AgentError, describeFsError } from "./errors";

/** What `register` stores and `run` reads: the agent's own credential, never the one-time token. */
export interface AgentConfig {
  server: string;
  agentId: number;
  credential: string;
}

/** Where root keeps the credential (the install script and the systemd unit use it). */
export const SYSTEM_CONFIG_PATH = "/etc/vigil-agent/agent.json";

/** The per-user file, for anyone but root. */
export const userConfigPath = () => join(homedir(), ".config", "vigil-agent", "agent.json");

export function defaultConfigPath(): string {
  if (process.platform !== "win32" && process.getuid?.() === 0) return SYSTEM_CONFIG_PATH;
  return userConfigPath();
}

export function readConfig(path: string): AgentConfig {
  if (!existsSync(path)) {
    // Registered as root but run as a user (or the other way round): name the file that does exist.
    const other = [SYSTEM_CONFIG_PATH, userConfigPath()].find((p) => p !== path && existsSync(p));
    const hint = other ? ` (there is one at ${other}: add --config ${other})` : ": run `vigil-agent register` first";
    throw new AgentError(`no agent configuration at ${path}${hint}`);
  }
  let config: AgentConfig;
  try {
    config = JSON.parse(readFileSync(path, "utf8")) as AgentConfig;
  } catch (e) {
    throw new AgentError(`cannot read ${path}: ${describeFsError(e) ?? "not valid JSON"}`);
  }
  if (!config?.server || !config.credential) throw new AgentError(`${path} is missing server or credential`);
  return config;
}

/** A credential file about to be written: checked writable now, filled in once the server has answered. */
export interface PendingConfig {
  /** Writes the config and moves it into place in one rename: a crash never leaves half a file. */
  commit(config: AgentConfig): void;
  /** Removes the temp file (registration failed). */
  abandon(): void;
}

/**
 * Creates the directory (0700) and an empty temp file (0600) beside `path`, so `register` knows it can save the
 * credential before it spends the one-time token. Throws an AgentError saying what to do when it cannot.
 */
export function prepareConfig(path: string): PendingConfig {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number;
  try {
    if (existsSync(path) && statSync(path).isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR", syscall: "open", path });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    fd = openSync(tmp, "wx", 0o600);
  } catch (e) {
    const reason = describeFsError(e);
    if (!reason) throw e;
    throw new AgentError(
      `cannot save the credential to ${path}: ${reason}. Run as root to use ${SYSTEM_CONFIG_PATH}, or pass --config with a file you can write. The token was not used.`,
    );
  }
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    commit(config) {
      writeSync(fd, JSON.stringify(config, null, 2) + "\n");
      fsyncSync(fd);
      close();
      renameSync(tmp, path);
    },
    abandon() {
      close();
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    },
  };
}
