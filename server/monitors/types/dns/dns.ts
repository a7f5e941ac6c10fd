// The DNS check: ask one resolver for one record type of one name, then decide up or down.
//
// Why our own UDP client rather than node:dns's Resolver: in Bun 1.4.5 the Resolver does honour a custom port
// ("127.0.0.1:5353"), `timeout` and `tries: 1`, but it reports a name without records of the asked type as ENOTFOUND,
// exactly like a name that does not exist (Node says ENODATA), and its resolveTxt returns each 255-byte chunk of a
// long TXT record as a separate record. Both were checked against responder.ts (Node 20 reads the same bytes
// correctly). A monitor must tell "does not exist" from "no A records" and must compare whole TXT records, so we
// send the query ourselves (wire.ts, shared with the responder): one UDP exchange, TCP when the answer is truncated.
// node:dns remains the fallback for `resolver: null` when /etc/resolv.conf names no usable server (e.g. Windows).
import { Resolver } from "node:dns/promises";
import { readFile } from "node:fs/promises";
import { connect as tcpConnect, isIP } from "node:net";
import { domainToASCII } from "node:url";
import {
  CHECK_ERROR_TEXT,
  dnsEmptyError,
  dnsFailedError,
  dnsNotFoundError,
  dnsUnexpectedError,
  timeoutError,
} from "../../check-errors";
import { badRequest } from "../../../http/http-error";
import { literalProblem } from "../../../net/targets";
import { RESOLVER_MESSAGE } from "./settings";
import type { CheckType } from "../check-type";
import { parseResolver } from "../address";
import { normaliseHost } from "../host";
import type { CheckOutcome } from "../check-type";
import { RCODE, decodeRdata, decodeResponse, encodeQuery, encodeRdata, normaliseName, type DecodedResponse, type RecordType } from "./wire";

export type { RecordType } from "./wire";

export interface DnsAnswer {
  /** Normalised: addresses as text, names lower-case without the dot, MX "10 mail.example.com", TXT joined. */
  answers: string[];
}

export type DnsFailureKind = "notfound" | "timeout" | "failed" | "cancelled";

/** Why a query gave no answer list. */
export class DnsError extends Error {
  constructor(
    readonly kind: DnsFailureKind,
    /** Short text for "failed" ("server failure", "refused", …). */
    readonly detail: string,
    /** A server replied (so a response time exists), as opposed to a timeout or a local failure. */
    readonly responded = false,
  ) {
    super(detail);
  }
}

export interface DnsQuery {
  name: string;
  type: RecordType;
  /** null: the system's resolver; else an IP with optional port ("9.9.9.9", "127.0.0.1:5353", "[::1]:5353"). */
  resolver: string | null;
  timeoutMs: number;
  signal?: AbortSignal;
}

// ── resolver addresses ──

const RESOLV_CONF_TTL_MS = 30_000;
let systemServer: { at: number; server: Promise<{ host: string; port: number } | null> } | null = null;

/**
 * The first usable nameserver of /etc/resolv.conf (re-read every 30 s, so an edited file is picked up without
 * reading it on every check). Link-local servers with a zone ("fe80::1%eth0") are skipped: we cannot address them.
 */
function systemResolver(now = Date.now()): Promise<{ host: string; port: number } | null> {
  if (!systemServer || now - systemServer.at > RESOLV_CONF_TTL_MS) {
    const server = readFile("/etc/resolv.conf", "utf8").then(
      (text) => {
        for (const line of text.split("\n")) {
          const m = /^\s*nameserver\s+(\S+)/.exec(line);
          const parsed = m && isIP(m[1]) ? parseResolver(m[1]) : null;
          if (parsed) return parsed;
        }
        return null;
      },
      () => null,
    );
    systemServer = { at: now, server };
  }
  return systemServer.server;
}

// ── the query ──

const RCODE_TEXT: Record<number, string> = {
  [RCODE.FORMERR]: "format error",
  [RCODE.SERVFAIL]: "server failure",
  [RCODE.NOTIMP]: "not implemented",
  [RCODE.REFUSED]: "refused",
};

/** One query; resolves to the answers or rejects with a DnsError. */
export async function queryDns(opts: DnsQuery): Promise<DnsAnswer> {
  if (opts.signal?.aborted) throw new DnsError("cancelled", "cancelled");
  const name = asciiName(opts.name);
  let server: { host: string; port: number } | null;
  if (opts.resolver === null) {
    server = await systemResolver();
    if (!server) return queryNodeDns(name, opts);
  } else {
    server = parseResolver(opts.resolver);
    if (!server) throw new DnsError("failed", `invalid resolver ${opts.resolver}`);
  }

  const deadline = Date.now() + opts.timeoutMs;
  let response = await exchange(server, name, opts.type, "udp", opts.timeoutMs, opts.signal);
  // Truncated despite EDNS: the full answer only comes over TCP (big TXT sets). Partial answers could fail an
  // "expected" comparison wrongly, so they are not used.
  if (response.truncated) response = await exchange(server, name, opts.type, "tcp", deadline - Date.now(), opts.signal);

  if (response.rcode === RCODE.NXDOMAIN) throw new DnsError("notfound", "does not exist", true);
  if (response.rcode !== RCODE.NOERROR) {
    throw new DnsError("failed", RCODE_TEXT[response.rcode] ?? `error code ${response.rcode}`, true);
  }
  return { answers: response.answers };
}

/** IDN names in their ASCII (punycode) form; ASCII names as written (domainToASCII would refuse "_dmarc."). */
function asciiName(name: string): string {
  const trimmed = name.trim().replace(/\.$/, "");
  if (/^[\x00-\x7f]*$/.test(trimmed)) return trimmed;
  const ascii = domainToASCII(trimmed);
  if (!ascii) throw new DnsError("failed", `invalid name ${trimmed}`);
  return ascii;
}

/**
 * Sends the query and waits for the matching response, the timeout or the abort. A fresh socket per query gives a
 * random source port and, being connected, hears only the resolver (with the random id: no accepting stray or
 * spoofed packets); at a few thousand checks a minute, opening one is cheap.
 */
function exchange(
  server: { host: string; port: number },
  name: string,
  type: RecordType,
  transport: "udp" | "tcp",
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DecodedResponse> {
  const id = (Math.random() * 0x10000) | 0;
  const query = encodeQuery(id, name, type, transport === "udp");
  return new Promise<DecodedResponse>((resolve, reject) => {
    let close = () => {};
    let settled = false;
    const finish = (error: DnsError | null, response?: DecodedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      close();
      if (error) reject(error);
      else resolve(response!);
    };
    /** A message from the server: ours (same id) or ignored. */
    const onMessage = (msg: Uint8Array) => {
      let response: DecodedResponse;
      try {
        response = decodeResponse(msg, type);
      } catch {
        if (transport === "tcp") finish(new DnsError("failed", "malformed response", true));
        return; // UDP: a garbled datagram may be followed by the real one
      }
      if (response.id === id) finish(null, response);
    };
    const onError = (err: unknown) => finish(socketError(err));
    const onAbort = () => finish(new DnsError("cancelled", "cancelled"));
    const timer = setTimeout(() => finish(new DnsError("timeout", "timeout")), Math.max(0, timeoutMs));
    signal?.addEventListener("abort", onAbort, { once: true });

    if (transport === "udp") {
      Bun.udpSocket({
        hostname: isIP(server.host) === 6 ? "::" : "0.0.0.0", // the socket's family must match the server's
        connect: { hostname: server.host, port: server.port },
        socket: {
          data: (_sock, msg) => onMessage(msg),
          // Bun 1.4.5 calls this with the error as the only argument (the types say (socket, error)); an ICMP "port
          // unreachable" arrives here as ECONNREFUSED, so a resolver that is down fails at once instead of timing out.
          error: (a: unknown, b?: unknown) => onError(b ?? a),
        },
      }).then(
        (sock) => {
          close = () => sock.close();
          if (settled) return sock.close();
          try {
            sock.send(query);
          } catch (err) {
            onError(err); // e.g. no IPv6 on this host
          }
        },
        onError,
      );
    } else {
      // TCP: each message is prefixed with its 16-bit length (RFC 1035 4.2.2).
      const sock = tcpConnect({ host: server.host, port: server.port });
      close = () => sock.destroy();
      let buffered = Buffer.alloc(0);
      sock.on("connect", () => {
        const length = Buffer.alloc(2);
        length.writeUInt16BE(query.length);
        sock.write(Buffer.concat([length, query]));
      });
      sock.on("data", (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
          onMessage(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
        }
      });
      sock.on("error", onError);
      sock.on("close", () => finish(new DnsError("failed", "connection closed", true)));
    }
  });
}

/** A socket error as a short detail ("connection refused", "network unreachable", else its code). */
function socketError(err: unknown): DnsError {
  const code = (err as { code?: string } | null)?.code;
  const text: Record<string, string> = {
    ECONNREFUSED: CHECK_ERROR_TEXT.REFUSED,
    ECONNRESET: CHECK_ERROR_TEXT.RESET,
    EHOSTUNREACH: CHECK_ERROR_TEXT.HOST_UNREACHABLE,
    ENETUNREACH: CHECK_ERROR_TEXT.NETWORK_UNREACHABLE,
  };
  return new DnsError("failed", (code && text[code]) || code || (err instanceof Error ? err.message : "socket error"));
}

/**
 * The system resolver through node:dns, when resolv.conf gave nothing. Bun's Resolver cannot tell "no records" from
 * "does not exist" (both ENOTFOUND), so such a name reads as not found here; ENODATA (Node's word for it) is empty.
 */
async function queryNodeDns(name: string, opts: DnsQuery): Promise<DnsAnswer> {
  const resolver = new Resolver({ timeout: opts.timeoutMs, tries: 1 });
  const onAbort = () => resolver.cancel();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    switch (opts.type) {
      case "A":
        return { answers: await resolver.resolve4(name) };
      case "AAAA":
        return { answers: (await resolver.resolve6(name)).map((a) => canonicalAddress(a)) };
      case "CNAME":
        return { answers: (await resolver.resolveCname(name)).map(normaliseName) };
      case "NS":
        return { answers: (await resolver.resolveNs(name)).map(normaliseName) };
      case "MX":
        return { answers: (await resolver.resolveMx(name)).map((mx) => `${mx.priority} ${normaliseName(mx.exchange)}`) };
      case "TXT":
        return { answers: (await resolver.resolveTxt(name)).map((chunks) => chunks.join("")) };
    }
    throw new DnsError("failed", `unsupported record type ${opts.type}`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOTFOUND") throw new DnsError("notfound", "does not exist", true);
    if (code === "ENODATA") return { answers: [] };
    if (code === "ETIMEOUT") throw new DnsError("timeout", "timeout");
    if (code === "ECANCELLED") throw new DnsError("cancelled", "cancelled");
    if (code === "ESERVFAIL") throw new DnsError("failed", "server failure", true);
    if (code === "EREFUSED") throw new DnsError("failed", "refused", true);
    throw new DnsError("failed", code ?? (err instanceof Error ? err.message : String(err)));
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

/** An IPv6 address in one canonical text form ("2001:DB8:0::1" → "2001:db8::1"); anything else as given. */
function canonicalAddress(address: string): string {
  try {
    return decodeRdata("AAAA", encodeRdata("AAAA", address), 0, 16);
  } catch {
    return address;
  }
}

// ── the check ──

export interface DnsCheckFields {
  host: string;
  dnsRecordType: RecordType;
  dnsResolver: string | null;
  dnsExpected: string | null;
  /** Seconds. */
  timeout: number;
}

/** How many answers an "unexpected" sentence lists (a TXT or NS set can be long). */
const SHOWN_ANSWERS = 5;

/** Text compared without case, surrounding space, a trailing dot or repeated spaces (MX "10  mail"). */
const comparable = (value: string) => normaliseName(value).replace(/\s+/g, " ");

/** Whether an answer is the expected value: AAAA in canonical form; MX as "10 mail.example.com" or just the exchange. */
export function answerMatches(type: RecordType, answer: string, expected: string): boolean {
  const want = comparable(type === "AAAA" ? canonicalAddress(expected.trim()) : expected);
  const got = comparable(answer);
  if (got === want) return true;
  return type === "MX" && got.slice(got.indexOf(" ") + 1) === want;
}

/** One DNS check; never throws. */
export async function checkDns(fields: DnsCheckFields, signal?: AbortSignal): Promise<CheckOutcome> {
  const time = Date.now();
  const started = performance.now();
  const name = normaliseName(fields.host);
  const outcome = (up: boolean, responseTime: number | null, error: string | null): CheckOutcome => ({
    time,
    up,
    responseTime,
    httpStatus: null,
    error,
  });
  let answers: string[];
  try {
    ({ answers } = await queryDns({
      name: fields.host,
      type: fields.dnsRecordType,
      resolver: fields.dnsResolver,
      timeoutMs: fields.timeout * 1000,
      signal,
    }));
  } catch (err) {
    const elapsed = Math.round(performance.now() - started);
    if (!(err instanceof DnsError)) {
      return outcome(false, null, dnsFailedError(err instanceof Error ? err.message : String(err)));
    }
    const responseTime = err.responded ? elapsed : null;
    switch (err.kind) {
      case "notfound":
        return outcome(false, responseTime, dnsNotFoundError(name));
      case "timeout":
        return outcome(false, null, timeoutError(fields.timeout));
      case "cancelled":
        return outcome(false, null, CHECK_ERROR_TEXT.CANCELLED);
      case "failed":
        return outcome(false, responseTime, dnsFailedError(err.detail));
    }
  }
  const responseTime = Math.round(performance.now() - started);
  if (answers.length === 0) return outcome(false, responseTime, dnsEmptyError(fields.dnsRecordType, name));
  const expected = fields.dnsExpected?.trim();
  if (expected && !answers.some((a) => answerMatches(fields.dnsRecordType, a, expected))) {
    const shown = answers.length > SHOWN_ANSWERS ? [...answers.slice(0, SHOWN_ANSWERS), "…"] : answers;
    return outcome(false, responseTime, dnsUnexpectedError(expected, shown));
  }
  return outcome(true, responseTime, null);
}

// ── the type: its fields' rules, its target and facts ──

export const dnsType: CheckType = {
  type: "dns",
  validate(fields, policy) {
    fields.host = normaliseHost(fields.host);
    if (fields.dnsExpected !== null) fields.dnsExpected = fields.dnsExpected.trim() || null;
    const raw = fields.dnsResolver?.trim() ?? "";
    if (!raw) {
      fields.dnsResolver = null;
      return;
    }
    const resolver = parseResolver(raw);
    if (!resolver) throw badRequest("INVALID_RESOLVER", RESOLVER_MESSAGE);
    // The resolver is contacted: the address policy applies to it (the answers are only read).
    const problem = literalProblem(resolver.host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    const host = isIP(resolver.host) === 6 ? `[${resolver.host}]` : resolver.host;
    fields.dnsResolver = resolver.port === 53 ? resolver.host : `${host}:${resolver.port}`;
  },
  check: (fields, ctx) => {
    // Checked again at each check (a monitor saved before --block-private-targets, or run by an agent).
    const resolver = fields.dnsResolver === null ? null : parseResolver(fields.dnsResolver);
    const problem = resolver && literalProblem(resolver.host, ctx.policy);
    if (problem) return Promise.resolve({ time: Date.now(), up: false, responseTime: null, httpStatus: null, error: `Target refused: ${problem}` });
    return checkDns(fields, ctx.signal);
  },
  target: (fields) => `${fields.host} ${fields.dnsRecordType}`,
  facts: (fields) => ({ record: fields.dnsRecordType, ...(fields.dnsResolver ? { resolver: fields.dnsResolver } : {}) }),
};
