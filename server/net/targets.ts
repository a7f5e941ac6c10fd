// Which addresses Vigil may send requests to: monitor checks (and their redirects) and webhook-style notifications.
//
// Checking internal services is the point of a self-hosted monitor, so private addresses are allowed by default. Never
// allowed: link-local addresses, where clouds serve instance metadata and credentials (169.254.169.254,
// fd00:ec2::254) — a monitor pointed there would hand them to whoever can read its results. An instance setting
// (--block-private-targets) also refuses loopback, private, shared (CGNAT) and other non-public ranges, for
// instances whose users should not reach the internal network.
import { BlockList, isIP } from "node:net";
import { lookup as dnsLookup } from "node:dns/promises";
import { ipOf } from "./host-address";

export interface TargetPolicy {
  /** Loopback, RFC 1918, ULA, CGNAT… allowed (true by default). Link-local never is. */
  allowPrivate: boolean;
}

export const ALLOW_PRIVATE: TargetPolicy = { allowPrivate: true };

const linkLocal = new BlockList();
linkLocal.addSubnet("169.254.0.0", 16, "ipv4");
linkLocal.addSubnet("fe80::", 10, "ipv6");
linkLocal.addAddress("fd00:ec2::254", "ipv6");

const nonPublic = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network": 0.0.0.0 reaches the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["127.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  nonPublic.addSubnet(net, bits, "ipv4");
}
nonPublic.addAddress("::", "ipv6");
nonPublic.addAddress("::1", "ipv6");
nonPublic.addSubnet("fc00::", 7, "ipv6"); // unique local
nonPublic.addSubnet("ff00::", 8, "ipv6"); // multicast

// Names that always mean the metadata service, whatever a resolver answers.
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);

/** Why an IP address may not be a target under the policy, or null when it may. */
export function addressProblem(address: string, policy: TargetPolicy): string | null {
  const family = isIP(address);
  if (!family) return null;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (linkLocal.check(address, type)) return `${address} is a link-local (cloud metadata) address, which Vigil never contacts`;
  if (!policy.allowPrivate && nonPublic.check(address, type)) {
    return `${address} is a private or local address, which this instance does not allow as a target`;
  }
  return null;
}

/** A URL's host name without IPv6 brackets, or null when it is not a URL. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null; // not a URL: the caller's own validation says so
  }
}

/**
 * The address a host stands for when written as one, in any spelling (host-address.ts: "2852039166", "127.1",
 * "[::ffff:127.0.0.1]"), else null: a name, to resolve. Checks and connections use this address, never the spelling.
 */
export function literalAddress(host: string): string | null {
  return ipOf(host) ?? (isIP(host) ? host : null);
}

/** The problem with a host as written (an IP address in any spelling, or a metadata name), without asking DNS. */
export function literalProblem(host: string, policy: TargetPolicy): string | null {
  const name = host.trim().replace(/\.$/, "").toLowerCase();
  if (METADATA_NAMES.has(name)) return `${name} is a cloud metadata service, which Vigil never contacts`;
  if (!policy.allowPrivate && (name === "localhost" || name.endsWith(".localhost"))) {
    return `${name} is a local address, which this instance does not allow as a target`;
  }
  const address = literalAddress(host);
  return address === null ? null : addressProblem(address, policy);
}

/** The problem with a URL's host as written (an IP literal or a metadata name), without asking DNS. */
export function literalHostProblem(url: string, policy: TargetPolicy): string | null {
  const host = hostOf(url);
  return host === null ? null : literalProblem(host, policy);
}

export type Resolve = (hostname: string) => Promise<string[]>;

export const defaultResolve: Resolve = async (hostname) => (await dnsLookup(hostname, { all: true })).map((a) => a.address);

/**
 * The problem with a URL's host once resolved: every address it resolves to must be allowed (a name pointing at
 * 169.254.169.254 is refused like the address itself). A name that does not resolve is not a policy problem: the
 * request itself then fails with its usual DNS error.
 */
export async function targetProblem(url: string, policy: TargetPolicy, resolve: Resolve = defaultResolve): Promise<string | null> {
  const host = hostOf(url);
  return host === null ? null : hostProblem(host, policy, resolve);
}

/** URLs a target guard remembers (a monitor's URL is one entry; redirect hops add theirs). */
const GUARD_URLS = 50_000;

/**
 * targetProblem for a checker that asks about the same URLs again and again: a host written as an IP address (or a
 * forbidden name) has a fixed verdict, returned at once without parsing the URL again; a name is resolved on every
 * call (through the resolver's own cache), since where it points may change.
 */
export function createTargetGuard(policy: TargetPolicy, resolve: Resolve = defaultResolve) {
  /** URL → its fixed verdict (null: allowed), or the host name to resolve. */
  const seen = new Map<string, { verdict: string | null } | { host: string }>();
  return (url: string): string | null | Promise<string | null> => {
    let entry = seen.get(url);
    if (!entry) {
      const host = hostOf(url);
      const literal = host === null ? null : literalProblem(host, policy);
      entry = host === null || literal || literalAddress(host) ? { verdict: literal } : { host };
      if (seen.size >= GUARD_URLS) seen.clear();
      seen.set(url, entry);
    }
    return "verdict" in entry ? entry.verdict : hostProblem(entry.host, policy, resolve);
  };
}

/** The problem with a bare host (TCP and DNS checks): as written, then every address it resolves to. */
export async function hostProblem(host: string, policy: TargetPolicy, resolve: Resolve = defaultResolve): Promise<string | null> {
  const literal = literalProblem(host, policy);
  if (literal || literalAddress(host)) return literal;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return null;
  }
  for (const address of addresses) {
    const problem = addressProblem(address, policy);
    if (problem) return `${host} resolves to ${problem}`;
  }
  return null;
}

/** Thrown by a guarded fetch for a refused target; its message is safe to show (no URL path or query). */
export class TargetRefused extends Error {
  readonly code = "TARGET_REFUSED";
}

/**
 * A fetch that refuses targets the policy forbids. Callers that follow redirects must do it by hand (redirect:
 * "manual") so that each hop passes through here.
 */
export function guardedFetch(policy: TargetPolicy, inner: typeof fetch = fetch, resolve?: Resolve): typeof fetch {
  const guarded = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const problem = await targetProblem(url, policy, resolve);
    if (problem) throw new TargetRefused(`Target refused: ${problem}`);
    return inner(input, init);
  };
  return Object.assign(guarded, { preconnect: inner.preconnect }) as typeof fetch;
}
