import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** What `register` stores and `run` reads: the agent's own credential, never the one-time token. */
export interface AgentConfig {
  server: string;
  agentId: number;
  credential: string;
}

export function defaultConfigPath(): string {
  if (process.platform !== "win32" && process.getuid?.() === 0) return "/etc/vigil-agent/agent.json";
  return join(homedir(), ".config", "vigil-agent", "agent.json");
}

export function readConfig(path: string): AgentConfig {
  if (!existsSync(path)) throw new Error(`no agent configuration at ${path}: run \`vigil-agent register\` first`);
  const config = JSON.parse(readFileSync(path, "utf8")) as AgentConfig;
  if (!config.server || !config.credential) throw new Error(`${path} is missing server or credential`);
  return config;
}

/** Written with mode 0600: the credential is a secret. */
export function writeConfig(path: string, config: AgentConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  chmodSync(path, 0o600);
}
