// The commands of the install guide (/agents/create), built from the server address, the build on offer, the token
// and the interval.

import type { AgentTarget } from "../../api/agents";

/** Every os-arch the guide knows how to name, in the order it offers them (Linux first). */
export const AGENT_TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64", "windows-arm64"] as const;
export type TargetId = (typeof AGENT_TARGETS)[number];

/** A build the server offers (GET /api/agents/targets): os, arch, its file under /downloads/, its size and its xz copy. */
export type DownloadTarget = AgentTarget;

export const INTERVAL_MIN = 1;
export const INTERVAL_MAX = 3600;
export const INTERVAL_DEFAULT = 10;

/** Shown in the commands until a token exists. */
export const TOKEN_PLACEHOLDER = "<TOKEN>";

export const targetId = (target: Pick<DownloadTarget, "os" | "arch">) => `${target.os}-${target.arch}` as TargetId;

/** The builds in the guide's order (Linux x64 first), whatever order the server listed them in. */
export function sortTargets<T extends Pick<DownloadTarget, "os" | "arch">>(targets: readonly T[]): T[] {
  const rank = (t: T) => {
    const i = AGENT_TARGETS.indexOf(targetId(t));
    return i === -1 ? AGENT_TARGETS.length : i;
  };
  return [...targets].sort((a, b) => rank(a) - rank(b));
}

/**
 * True when the URL's host is a loopback address (localhost, *.localhost, 127.0.0.0/8, ::1): agents on other machines
 * cannot reach it. False for anything that does not parse.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (/^127(\.\d{1,3}){3}$/.test(host)) return true;
  // URL writes IPv6 hosts in brackets, compressed: [::1]; an IPv4-mapped 127.x as [::ffff:7fxx:xxxx].
  return host === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

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
  /** Step 1: fetch the binary (its xz copy when the server has one) and make it executable; null without a build. */
  download: string | null;
  /** When `download` takes the xz copy: the same with gzip on the wire, for a machine without xz. Else null. */
  downloadWithoutXz: string | null;
  /** The same file for a browser: its address. Null with `download`. */
  downloadUrl: string | null;
  /** Step 2a: trade the one-time token for the agent's own credential. */
  register: string;
  /** Step 2b: start reporting. */
  run: string;
  /** Optional, Linux: the installer script (download, sha256 check, register, systemd unit). */
  install: string;
}

/**
 * The guide's commands. `target` is the chosen build (null: none on offer; the other commands are then the POSIX
 * ones). The download takes the xz copy when the build has one (Linux: about a third of the binary), else asks for
 * gzip (`--compressed`: the server sends its pre-built .gz, about half the size), except on Windows, whose bundled
 * curl.exe is built without zlib and would refuse the option.
 */
export function installCommands(input: {
  origin: string;
  target: Pick<DownloadTarget, "os" | "file" | "xz"> | null;
  token: string | null;
  interval: number;
}): InstallCommands {
  const origin = input.origin.replace(/\/+$/, "");
  const token = input.token || TOKEN_PLACEHOLDER;
  const url = input.target ? `${origin}/downloads/${encodeURIComponent(input.target.file)}` : null;
  const install = `curl -fsSL ${shellQuote(`${origin}/install.sh`)} | sudo sh -s -- --token ${shellQuote(token)} --interval ${input.interval}`;
  if (input.target?.os === "windows") {
    const q = powershellQuote;
    return {
      download: `curl.exe -fsSL -o vigil-agent.exe ${q(url!)}`,
      downloadWithoutXz: null,
      downloadUrl: url,
      register: `.\\vigil-agent.exe register --server ${q(origin)} --token ${q(token)}`,
      run: `.\\vigil-agent.exe run --interval ${input.interval}`,
      install,
    };
  }
  const q = shellQuote;
  const gzip = url && `curl -fsSL --compressed -o vigil-agent ${q(url)} && chmod +x vigil-agent`;
  const xz = input.target?.xz;
  return {
    // -f: xz would not replace an agent downloaded before.
    download: xz ? `curl -fsSL -o vigil-agent.xz ${q(`${origin}/downloads/${encodeURIComponent(xz.file)}`)} && xz -df vigil-agent.xz && chmod +x vigil-agent` : gzip,
    downloadWithoutXz: xz ? gzip : null,
    downloadUrl: url,
    register: `./vigil-agent register --server ${q(origin)} --token ${q(token)}`,
    run: `./vigil-agent run --interval ${input.interval}`,
    install,
  };
}
