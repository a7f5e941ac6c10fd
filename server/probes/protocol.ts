import { t, type Static } from "elysia";
import { MAX_PROBE_ERROR, MAX_PROBE_RESPONSE_MS, MAX_PROBE_RESULTS } from "./limits";

// Checks from agents ("locations"): what an agent and the server say to each other on POST /api/agents/probes.
// The server validates with these schemas; the agent imports the types only (agent/probes.ts) and the limits.

export { MAX_PROBE_ERROR, MAX_PROBE_RESPONSE_MS, MAX_PROBE_RESULTS };

export const pingStatsSchema = t.Object({
  sent: t.Integer({ minimum: 0, maximum: 100 }),
  received: t.Integer({ minimum: 0, maximum: 100 }),
  loss: t.Number({ minimum: 0, maximum: 100 }),
  min: t.Union([t.Number({ minimum: 0, maximum: 1e7 }), t.Null()]),
  avg: t.Union([t.Number({ minimum: 0, maximum: 1e7 }), t.Null()]),
  max: t.Union([t.Number({ minimum: 0, maximum: 1e7 }), t.Null()]),
});

/** One check an agent made of a monitor assigned to it (a CheckOutcome without the server's own marks). */
export const probeResultSchema = t.Object({
  monitorId: t.Integer({ minimum: 1 }),
  /** When the check started (Unix ms): with the monitor and agent it identifies the result, so a resend is not doubled. */
  time: t.Integer({ minimum: 0 }),
  up: t.Boolean(),
  responseTime: t.Union([t.Integer({ minimum: 0, maximum: MAX_PROBE_RESPONSE_MS }), t.Null()]),
  httpStatus: t.Union([t.Integer({ minimum: 100, maximum: 999 }), t.Null()]),
  error: t.Union([t.String({ maxLength: MAX_PROBE_ERROR }), t.Null()]),
  ping: t.Optional(pingStatsSchema),
});

export const probeCallSchema = t.Object({
  /** The version of the assignments the agent runs ("" before it has any): a different one gets the new list back. */
  version: t.String({ maxLength: 64 }),
  results: t.Array(probeResultSchema, { maxItems: MAX_PROBE_RESULTS }),
});

export type ProbeResult = Static<typeof probeResultSchema>;
export type ProbeCall = Static<typeof probeCallSchema>;

/**
 * One monitor an agent checks: its id, time between checks, and its check fields exactly as the server's check
 * modules read them (server/monitors/field-rules.ts MonitorFields; push monitors are never assigned).
 */
export interface ProbeAssignment {
  id: number;
  /** Minutes, fractional below a minute (0.5 = 30 s): what agents before intervalSeconds read. */
  interval: number;
  /** Seconds between checks: newer agents read this one (optional: servers before it did not send it). */
  intervalSeconds?: number;
  fields: Record<string, unknown>;
}

export interface ProbeAssignments {
  version: string;
  /** The server's address policy, enforced by the agent too (link-local is always refused). */
  policy: { allowPrivate: boolean };
  monitors: ProbeAssignment[];
}

/**
 * Why a result was not stored. NOT_ASSIGNED: the monitor is not (or no longer) assigned to this agent, or does not
 * exist — an agent is not told which monitors exist beyond its own. MONITOR_PAUSED: assigned, but paused.
 * TIME_AHEAD / TOO_OLD: its time is more than 5 minutes ahead of the server's clock, or older than the results kept.
 */
export type ProbeRefusalReason = "NOT_ASSIGNED" | "MONITOR_PAUSED" | "TIME_AHEAD" | "TOO_OLD";

/** One result the server did not store: which (monitor and time), a stable code, and a sentence. */
export interface ProbeRefusal {
  monitorId: number;
  time: number;
  reason: ProbeRefusalReason;
  message: string;
}

/**
 * The reply to POST /api/agents/probes: how many results the server now holds (stored by this call, or already by
 * an earlier send of the same result), the ones it refused and why (the agent forgets those too: resending would not
 * help), and the assignments when the agent's version is not the current one.
 */
export interface ProbeReply {
  success: true;
  accepted: number;
  refused: ProbeRefusal[];
  assignments?: ProbeAssignments;
}
