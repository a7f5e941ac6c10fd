// What the monitor service is built from and offers beside its functions (server/monitors/service.ts): its options,
// what it needs of a cluster and of agent locations, the fields whose edit runs a check, and each monitor's cadence.
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import type { Logger } from "../log";
import type { HistoryOptions } from "./history";
import type { Clock } from "./scheduler";
import type { TargetPolicy } from "../net/targets";
import type { MonitorChange, MonitorFields } from "./schemas";
import type { Pinger } from "./types/ping/pinger";
import type { CheckOutcome } from "./types";
import type { Checker } from "./types/http/http";
import type { TlsProbe } from "./tls-probe";
import type { PersistedState, WriterOptions } from "./writer";

/**
 * What the monitors need from a cluster (server/cluster/service.ts): which monitors this node checks, and a channel
 * to the other nodes. Without one, this node checks every monitor.
 */
export interface MonitorPeers {
  owns(id: number): boolean;
  publish(kind: string, data: unknown): void;
  on(kind: string, handler: (data: unknown) => void): () => void;
  /** Sends what was published so far. */
  flush(): Promise<unknown>;
}

/**
 * Where a monitor is checked from (server/probes): for a monitor with agent locations, `combine` turns the server's
 * own check (null when the server is not one of its locations) and the agents' latest results into the verdict that
 * is recorded; null when no location has reported (nothing is recorded: "no data"). Monitors without locations never
 * reach it: `has` is one Map lookup on the hot path.
 */
export interface MonitorLocations {
  has(id: number): boolean;
  fromServer(id: number): boolean;
  combine(id: number, fields: MonitorFields, own: CheckOutcome | null, now: number): Promise<CheckOutcome | null>;
}

/** A check made by another node, as it tells the others: the outcome and the monitor's state after it. */
export interface RemoteResult {
  id: number;
  outcome: CheckOutcome;
  state: PersistedState;
}


export interface MonitorServiceOptions {
  db: Db;
  bus: EventBus;
  log?: Logger;
  clock?: Clock;
  /** Replaces the HTTP request of http monitors (tests). */
  checker?: Checker;
  /** Replaces how ping monitors send echo requests (tests); default: the ICMP socket, else the ping program. */
  pinger?: () => Pinger | null;
  /** Which addresses monitors may target (server/net/targets.ts); private ones by default. */
  targets?: TargetPolicy;
  /** TLS expiry lookups; false turns them off. */
  tls?: TlsProbe | false;
  /** Checks running at once (default 200). */
  concurrency?: number;
  /** Whether a monitor is in maintenance now (server/maintenance: an in-memory lookup). */
  maintenance?: (id: number) => boolean;
  /**
   * How long a minute of the intervals is (check slots, push silence): 60 000. Real-clock tests of the wired server
   * shorten it, leaving the clock itself alone.
   */
  minuteMs?: number;
  /** Raw results kept, days (default 7). */
  rawRetentionDays?: number;
  writer?: WriterOptions;
  history?: Omit<HistoryOptions, "clock" | "log" | "rawRetentionMs">;
}

// Fields whose change makes the next check different: an edit of any of them runs a check at once.
export const CHECK_FIELDS: (keyof MonitorFields)[] = [
  "type",
  "url",
  "method",
  "intervalSeconds",
  "timeout",
  "expectedStatus",
  "headers",
  "body",
  "followRedirects",
  "keyword",
  "keywordInvert",
  "keywordCaseSensitive",
  "jsonPath",
  "maxResponseTime",
  "ignoreTls",
  "freshConnection",
  "tlsExpiryDays",
  "host",
  "port",
  "dnsRecordType",
  "dnsResolver",
  "dnsExpected",
  "pushGrace",
  "pingCount",
  "pingFamily",
  "pingLossThreshold",
  "upsideDown",
  "objective",
  "objectiveDays",
  "settings",
];

/** A create or update body: the fields, and the monitors it depends on (replaced as a whole when given). */
export type MonitorInput = MonitorChange & { dependsOn?: number[] };

/**
 * Seconds between scheduled looks: the interval; push monitors' silence is looked for every minute, or every interval
 * when shorter (a 20 s push monitor's silence is noticed within 20 s).
 */
export const cadence = (fields: MonitorFields) => (fields.type === "push" ? Math.min(60, fields.intervalSeconds) : fields.intervalSeconds);
