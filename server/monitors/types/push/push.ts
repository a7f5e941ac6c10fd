// The push check type: nothing is fetched. A cron job or backup script calls `/api/push/{token}` (GET or POST,
// optional `status=down`, `msg=` and `ping=`); each call is a check result. The monitor is down when no call came
// within interval + grace: the scheduler looks every minute, or every interval when shorter (a comparison in memory), and records one missed check
// per interval of silence, so uptime counts missed runs like failed checks.
import { randomBytes } from "node:crypto";
import { pushMissedError, pushReportedError } from "../../check-errors";
import type { CheckOutcome, CheckState, CheckType } from "../check-type";
import type { MonitorFields } from "../../field-rules";

/** 24 random bytes, URL-safe: 192 bits, unguessable, and short enough for a crontab line. */
export const newPushToken = () => randomBytes(24).toString("base64url");
export const PUSH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** Longest `msg=` kept (the rest is cut). */
export const PUSH_MESSAGE_LENGTH = 200;
/** Largest `ping=` (ms) a call may report: ten minutes. */
export const PUSH_PING_MAX_MS = 600_000;
/** Calls closer together than this are refused (429): a script in a loop must not flood the history. */
export const PUSH_MIN_GAP_MS = 1000;

/** The result of one push call. */
export function pushOutcome(time: number, call: { status?: string; msg?: string; ping?: number | null }): CheckOutcome {
  const down = call.status === "down";
  const message = call.msg?.replace(/\s+/g, " ").trim().slice(0, PUSH_MESSAGE_LENGTH) || null;
  return { time, up: !down, responseTime: call.ping ?? null, httpStatus: null, error: down ? pushReportedError(message) : null };
}

/**
 * A missed push, or null. Silence counts from the latest call, or from when listening started (a new, resumed or
 * edited monitor, or a restarted server, gets a full interval + grace before it is called silent).
 */
export function missedPush(fields: Pick<MonitorFields, "intervalSeconds" | "pushGrace">, state: CheckState, now: number, minuteMs = 60_000): CheckOutcome | null {
  const intervalMs = (fields.intervalSeconds * minuteMs) / 60;
  const heard = Math.max(state.lastPushAt ?? 0, state.pushWatch.since);
  if (now - heard < intervalMs + fields.pushGrace * 1000) return null;
  // One missed check per interval of silence (the scheduler looks every minute or interval; slack for timer jitter).
  if (state.pushWatch.missedAt !== null && now - state.pushWatch.missedAt < intervalMs - Math.min(1000, intervalMs / 2)) return null;
  state.pushWatch.missedAt = now;
  return { time: now, up: false, responseTime: null, httpStatus: null, error: pushMissedError(fields.intervalSeconds, fields.pushGrace) };
}

export const pushType: CheckType = {
  type: "push",
  validate(fields) {
    fields.pushToken ??= newPushToken();
  },
  check: async (fields, ctx, state) => missedPush(fields, state, ctx.now(), ctx.minuteMs),
  target: () => "",
  facts: (_fields, state) => ({ lastPushAt: state.lastPushAt }),
};
