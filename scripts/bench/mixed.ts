// The mixed run of the monitor benchmark (monitors.ts --mixed): http monitors with a keyword assertion, tcp, dns and
// push monitors side by side, each against a local service this process runs on 127.0.0.1 — the counting HTTP target
// (its body holds the keyword), a TCP listener counting connections, the DNS responder of the DNS check's tests, and a
// pinger calling each push monitor's URL once a minute.
import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { startDnsResponder, type DnsZone } from "../../server/monitors/types/dns/responder";
import { countingTarget, countingTcpListener } from "./fixtures";

export const MIX_TYPES = ["http", "tcp", "dns", "push"] as const;
export type MixType = (typeof MIX_TYPES)[number];
/** Each type's share of the monitors (sums to 1). */
export type Mix = Record<MixType, number>;

/** "http:25,tcp:25,dns:25,push:25" (weights, any scale) → shares; null when malformed. */
export function parseMix(text: string): Mix | null {
  const mix: Mix = { http: 0, tcp: 0, dns: 0, push: 0 };
  for (const part of text.split(",")) {
    const [type, weight] = part.split(":").map((s) => s.trim());
    if (!(MIX_TYPES as readonly string[]).includes(type) || !(Number(weight) >= 0)) return null;
    mix[type as MixType] = Number(weight);
  }
  const total = MIX_TYPES.reduce((s, t) => s + mix[t], 0);
  if (!(total > 0)) return null;
  for (const t of MIX_TYPES) mix[t] /= total;
  return mix;
}

export const describeMix = (mix: Mix) =>
  MIX_TYPES.filter((t) => mix[t] > 0)
    .map((t) => `${t === "http" ? "http+keyword" : t} ${Math.round(mix[t] * 100)} %`)
    .join(", ");

/** The type of each of n monitors, interleaved by id (25/25/25/25 → http, tcp, dns, push, http, …). */
function assignTypes(n: number, mix: Mix): MixType[] {
  const given: Record<MixType, number> = { http: 0, tcp: 0, dns: 0, push: 0 };
  const out: MixType[] = [];
  for (let i = 0; i < n; i++) {
    let best: MixType = "http";
    let deficit = -Infinity;
    for (const t of MIX_TYPES) {
      if (mix[t] > 0 && mix[t] * (i + 1) - given[t] > deficit) [best, deficit] = [t, mix[t] * (i + 1) - given[t]];
    }
    given[best]++;
    out.push(best);
  }
  return out;
}

export const KEYWORD = "Vigil bench";
/** Names the DNS monitors look up: host0…host15 (one A record each) and multi (two). */
const DNS_HOSTS = 16;
const dnsName = (j: number) => (j % (DNS_HOSTS + 1) === DNS_HOSTS ? "multi.bench.test" : `host${j % (DNS_HOSTS + 1)}.bench.test`);
const dnsAddress = (j: number) => (j % (DNS_HOSTS + 1) === DNS_HOSTS ? "127.0.1.2" : `127.0.0.${(j % (DNS_HOSTS + 1)) + 1}`);

/** The local services of the mixed run. */
export async function startMixedFixtures() {
  const http = countingTarget(`status: ok (${KEYWORD.toLowerCase()} target)`); // the keyword matches without case
  const tcp = await countingTcpListener();
  const zone: DnsZone = { "multi.bench.test": { A: ["127.0.1.1", "127.0.1.2"] } };
  for (let k = 0; k < DNS_HOSTS; k++) zone[`host${k}.bench.test`] = { A: [`127.0.0.${k + 1}`] };
  const dns = await startDnsResponder(zone);
  return {
    http,
    tcp,
    dns,
    counters: () => ({ httpHits: http.hits(), tcpAccepted: tcp.accepted(), dnsQueries: dns.queries }),
    stop() {
      http.stop();
      tcp.stop();
      dns.stop();
    },
  };
}
export type MixedFixtures = Awaited<ReturnType<typeof startMixedFixtures>>;

/**
 * Writes n monitors (1-minute interval, 10 s timeout, 1 retry) of the mix straight into a fresh database: http GETs
 * with a keyword, tcp connects, dns A lookups (every other one with an expected answer), push monitors (60 s grace).
 * Returns the push tokens and the first monitor id of each type.
 */
export function insertMixed(db: Database, n: number, mix: Mix, fx: MixedFixtures, now: number) {
  const insert = db.prepare(
    "INSERT INTO monitors (name, type, interval, timeout, retries, settings, push_token, created_at, updated_at) VALUES (?, ?, 1, 10, 1, ?, ?, ?, ?)",
  );
  const pushTokens: string[] = [];
  const firstId: Partial<Record<MixType, number>> = {};
  const count: Record<MixType, number> = { http: 0, tcp: 0, dns: 0, push: 0 };
  db.transaction(() => {
    assignTypes(n, mix).forEach((type, index) => {
      const i = index + 1;
      const j = count[type]++;
      // The type's settings object (missing fields read as their defaults).
      let settings: Record<string, unknown>;
      let token: string | null = null;
      if (type === "http") settings = { url: `http://127.0.0.1:${fx.http.port}/m/${i}`, keyword: KEYWORD };
      else if (type === "tcp") settings = { host: "127.0.0.1", port: fx.tcp.port };
      else if (type === "dns") settings = { host: dnsName(j), dnsRecordType: "A", dnsResolver: `127.0.0.1:${fx.dns.port}`, dnsExpected: j % 2 ? null : dnsAddress(j) };
      else {
        token = randomBytes(24).toString("base64url");
        pushTokens.push(token);
        settings = { pushGrace: 60 };
      }
      const id = Number(insert.run(`bench ${type} ${i}`, type, JSON.stringify(settings), token, now, now).lastInsertRowid);
      firstId[type] ??= id;
    });
  })();
  return { pushTokens, firstId, count };
}

export interface PingCounts {
  /** Calls made. */
  sent: number;
  ok: number;
  /** 429 Too many pushes. */
  tooMany: number;
  /** Any other status or a network error. */
  failed: number;
  /** Not sent because maxInFlight calls were already waiting (the server is not keeping up). */
  skipped: number;
}

/**
 * Calls every push URL once per `periodMs`, spread evenly (monitor k at k/n of the period), GET without a body, at
 * most `maxInFlight` calls open (more are skipped and counted, never queued: a slow server gets no backlog). Stops
 * by itself at `untilMs` (performance.now() time), or on stop().
 */
export function pushPinger(base: string, tokens: string[], { untilMs, periodMs = 60_000, maxInFlight = 64 }: { untilMs: number; periodMs?: number; maxInFlight?: number }) {
  const counts: PingCounts = { sent: 0, ok: 0, tooMany: 0, failed: 0, skipped: 0 };
  const firstFailures: string[] = [];
  const failure = (text: string) => {
    counts.failed++;
    if (firstFailures.length < 5) firstFailures.push(text);
  };
  let inFlight = 0;
  let stopped = false;
  const n = tokens.length;
  const start = performance.now();
  let next = 0; // call c goes to monitor c % n at start + c·period/n
  const done = (async () => {
    if (n === 0) return;
    while (!stopped && performance.now() < untilMs) {
      const now = performance.now();
      while (start + (next * periodMs) / n <= now) {
        const token = tokens[next++ % n];
        if (inFlight >= maxInFlight) {
          counts.skipped++;
          continue;
        }
        inFlight++;
        counts.sent++;
        fetch(`${base}/api/push/${token}`)
          .then(async (res) => {
            const text = await res.text();
            if (res.status === 200) counts.ok++;
            else if (res.status === 429) counts.tooMany++;
            else failure(`${res.status} ${text.slice(0, 200)}`);
          }, (err) => failure(String(err)))
          .finally(() => inFlight--);
      }
      await Bun.sleep(Math.max(0, Math.min(50, untilMs - performance.now())));
    }
    const settle = performance.now() + 15_000;
    while (inFlight > 0 && performance.now() < settle) await Bun.sleep(20);
  })();
  return {
    snapshot: (): PingCounts => ({ ...counts }),
    firstFailures,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
