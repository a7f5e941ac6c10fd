// The one small interface every check type implements (server/monitors/types/<type>/): a type validates its own
// fields, runs one check, and names what it checks. The scheduler, history, notifications and status page do not
// know types: a check only decides up or down, a response time and an error sentence (check-errors.ts).
import type { Resolve, TargetPolicy } from "../../net/targets";
import type { MonitorFacts, MonitorType, PingStats } from "../public";
import type { MonitorFields } from "../field-rules";

export interface CheckOutcome {
  /** When the check started (Unix ms). */
  time: number;
  up: boolean;
  /** ms; null when no answer came. */
  responseTime: number | null;
  /** http only. */
  httpStatus: number | null;
  /** A check-errors.ts sentence; null when up. */
  error: string | null;
  /** Made while the monitor was in maintenance (set when recorded): stored and shown, left out of uptime. */
  maintenance?: boolean;
  /** Failed while a monitor it depends on was down (set when recorded): recorded, alerting nobody. */
  unreachable?: boolean;
  /** ping: round trips and packet loss. */
  ping?: PingStats;
  /** When the certificate the check saw expires (Unix ms): the later types with TLS (mail…) report their own. */
  tlsExpiresAt?: number | null;
  /**
   * browser: the page (PNG) when the check failed. record() takes it off the outcome at once (it is neither queued
   * with the result nor sent to other nodes) and stores it apart (server/monitors/screenshots.ts).
   */
  screenshot?: Uint8Array;
}

export interface CheckContext {
  /** Aborts when the scheduler stops. */
  signal?: AbortSignal;
  /** Which addresses may be contacted. */
  policy: TargetPolicy;
  /** Host name lookups for the policy (cached). */
  resolve: Resolve;
  now: () => number;
  /** How long a minute of the intervals is (60 000; shorter in real-clock tests): push silence counts in it. */
  minuteMs?: number;
}

/** The state a type may read (push: when the last call came). */
export interface CheckState {
  lastPushAt: number | null;
  tlsExpiresAt: number | null;
  /** push: when listening started (created, resumed, edited, or the server started) and the last silence recorded. */
  pushWatch: { since: number; missedAt: number | null };
}

export interface CheckType {
  readonly type: MonitorType;
  /**
   * Checks and normalises this type's fields in place (after the shared ones); throws a 400 HttpError. `stored`: the
   * settings kept before this change (the later types restore secrets sent back masked from them).
   */
  validate(fields: MonitorFields, policy: TargetPolicy, creating: boolean, stored: Record<string, unknown>): void;
  /** One check; never throws (a failure is a down outcome with a sentence). null: nothing to record (push). */
  check(fields: MonitorFields, ctx: CheckContext, state: CheckState): Promise<CheckOutcome | null>;
  /** What lists show and search for: the URL, host:port, "name record"… */
  target(fields: MonitorFields): string;
  /** What a notification names beside the target. */
  facts(fields: MonitorFields, state: CheckState): MonitorFacts;
  /** The settings as replies show them: secrets masked (the later types; the first five have none). */
  view?(settings: Record<string, unknown>): Record<string, unknown>;
  /** Whether agents can run this type's checks (default: the first five types' rule, agent-locations.ts). */
  readonly runsOnAgents?: boolean;
  /** Releases what its checks share (a browser) when the monitors stop. */
  close?(): Promise<void>;
}
