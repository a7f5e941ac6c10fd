// The commands of the install guide (/agents/create), built from the server address, the token and the interval.

export const AGENT_TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type AgentTarget = (typeof AGENT_TARGETS)[number];

export const INTERVAL_MIN = 1;
export const INTERVAL_MAX = 3600;
export const INTERVAL_DEFAULT = 10;

/** Shown in the commands until a token exists. */
export const TOKEN_PLACEHOLDER = "<TOKEN>";

export const isWindows = (target: AgentTarget) => target.startsWith("windows");
export const isLinux = (target: AgentTarget) => target.startsWith("linux");

/** The file the server serves for a target: vigil-agent-linux-x64, vigil-agent-windows-x64.exe … */
export const binaryName = (target: AgentTarget) => `vigil-agent-${target}${isWindows(target) ? ".exe" : ""}`;

/** A reporting interval typed by the user: a whole number of seconds in 1–3600, or null. */
export function parseInterval(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= INTERVAL_MIN && n <= INTERVAL_MAX ? n : null;
}

/** A word as a POSIX shell reads it: unchanged when harmless, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The same for PowerShell (single quotes, a quote doubled). */
export function powershellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "''")}'`;
}

export interface InstallCommands {
  /** Step 1: fetch the binary (and make it executable). */
  download: string;
  /** Step 2a: trade the one-time token for the agent's own credential. */
  register: string;
  /** Step 2b: start reporting. */
  run: string;
  /** Optional, Linux: the installer script (download, sha256 check, register, systemd unit). */
  install: string;
}

export function installCommands(input: { origin: string; target: AgentTarget; token: string | null; interval: number }): InstallCommands {
  const origin = input.origin.replace(/\/+$/, "");
  const token = input.token || TOKEN_PLACEHOLDER;
  const url = `${origin}/downloads/${binaryName(input.target)}`;
  const install = `curl -fsSL ${shellQuote(`${origin}/install.sh`)} | sudo sh -s -- --token ${shellQuote(token)} --interval ${input.interval}`;
  if (isWindows(input.target)) {
    const q = powershellQuote;
    return {
      download: `curl.exe -fsSL -o vigil-agent.exe ${q(url)}`,
      register: `.\\vigil-agent.exe register --server ${q(origin)} --token ${q(token)}`,
      run: `.\\vigil-agent.exe run --interval ${input.interval}`,
      install,
    };
  }
  const q = shellQuote;
  return {
    download: `curl -fsSL -o vigil-agent ${q(url)} && chmod +x vigil-agent`,
    register: `./vigil-agent register --server ${q(origin)} --token ${q(token)}`,
    run: `./vigil-agent run --interval ${input.interval}`,
    install,
  };
}
