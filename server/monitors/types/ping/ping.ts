// The ping check type: `pingCount` ICMP echo requests 200 ms apart to the host, each waiting up to the monitor's
// timeout for its reply. Recorded: the round trips (min / avg / max, to the microsecond) and the packet loss; the
// response time is the average. Down when the loss reaches the threshold (100 % by default: no reply at all) or
// the average round trip passes the limit (maxResponseTime).
import { isIP } from "node:net";
import { badRequest } from "../../../http/http-error";
import { addressProblem, literalAddress, literalProblem, type Resolve, type TargetPolicy } from "../../../net/targets";
import { CHECK_ERROR_TEXT, pingFamilyError, pingLossError, tooSlowError } from "../../check-errors";
import type { PingStats } from "../../public";
import type { MonitorFields } from "../../field-rules";
import type { CheckOutcome, CheckType } from "../check-type";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { systemPinger, type Pinger, type PingRun } from "./pinger";

export type PingTarget = Pick<MonitorFields, "host" | "pingCount" | "pingFamily" | "pingLossThreshold" | "maxResponseTime" | "timeout">;

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;

/** The figures of a run: loss in whole percent, round trips of the replies that came. */
export function pingStats(run: PingRun): PingStats {
  const rtts = run.rtts.filter((r): r is number => r !== null);
  const sent = Math.max(run.sent, rtts.length);
  const received = rtts.length;
  const loss = sent === 0 ? 100 : Math.round(((sent - received) / sent) * 100);
  if (!received) return { sent, received, loss, min: null, avg: null, max: null };
  return { sent, received, loss, min: round3(Math.min(...rtts)), avg: round3(rtts.reduce((a, b) => a + b, 0) / received), max: round3(Math.max(...rtts)) };
}

/** The verdict on a run's figures. */
export function pingVerdict(stats: PingStats, target: Pick<PingTarget, "pingLossThreshold" | "maxResponseTime">): string | null {
  if (stats.received === 0 || stats.loss >= target.pingLossThreshold) return pingLossError(stats.loss, stats.received, stats.sent);
  if (target.maxResponseTime !== null && stats.avg !== null && stats.avg > target.maxResponseTime) return tooSlowError(stats.avg, target.maxResponseTime);
  return null;
}

/** The address to ping: the literal, or the host's first address of the family asked for, allowed by the policy. */
async function addressOf(target: PingTarget, policy: TargetPolicy, resolve: Resolve): Promise<{ address: string; family: 4 | 6 } | { error: string }> {
  const literal = literalProblem(target.host, policy);
  if (literal) return { error: `Target refused: ${literal}` };
  const want = target.pingFamily === "ipv4" ? 4 : target.pingFamily === "ipv6" ? 6 : 0;
  // A host written as an address in another spelling ("127.1") is pinged at the address it stands for.
  const written = literalAddress(target.host);
  let addresses: string[];
  if (written) addresses = [written];
  else {
    try {
      addresses = await resolve(target.host);
    } catch {
      return { error: CHECK_ERROR_TEXT.DNS };
    }
    if (!addresses.length) return { error: CHECK_ERROR_TEXT.DNS };
    for (const a of addresses) {
      const problem = addressProblem(a, policy);
      if (problem) return { error: `Target refused: ${target.host} resolves to ${problem}` };
    }
  }
  const address = addresses.find((a) => !want || isIP(a) === want);
  if (!address) return { error: pingFamilyError(want as 4 | 6, target.host) };
  return { address, family: isIP(address) as 4 | 6 };
}

export async function checkPing(target: PingTarget, pinger: Pinger | null, policy: TargetPolicy, resolve: Resolve, signal?: AbortSignal): Promise<CheckOutcome> {
  const time = Date.now();
  const down = (error: string, ping?: PingStats): CheckOutcome => ({ time, up: false, responseTime: null, httpStatus: null, error, ...(ping ? { ping } : {}) });
  if (!pinger) return down(CHECK_ERROR_TEXT.PING_UNAVAILABLE);
  const to = await addressOf(target, policy, resolve);
  if ("error" in to) return down(to.error);
  let run: PingRun;
  try {
    run = await pinger.ping(to.address, to.family, target.pingCount, target.timeout * 1000, signal);
  } catch (e) {
    if ((e as Error).name === "AbortError") return down(CHECK_ERROR_TEXT.CANCELLED);
    return down((e as Error).message.startsWith("ping failed") || (e as Error).message.includes("not allowed") ? (e as Error).message : describeError(e, target.timeout));
  }
  const ping = pingStats(run);
  const error = pingVerdict(ping, target);
  const responseTime = ping.avg === null ? null : Math.round(ping.avg);
  return { time, up: error === null, responseTime, httpStatus: null, error, ping };
}

export function pingType(pinger: () => Pinger | null = systemPinger): CheckType {
  return {
    type: "ping",
    validate(fields, policy) {
      fields.host = normaliseTargetHost(fields.host);
      const problem = literalProblem(fields.host, policy);
      if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
      const literal = isIP(fields.host);
      if ((literal === 4 && fields.pingFamily === "ipv6") || (literal === 6 && fields.pingFamily === "ipv4")) {
        throw badRequest("VALIDATION", `${fields.host} is an IPv${literal} address: choose IPv${literal} or automatic`);
      }
      if (fields.maxResponseTime !== null && fields.maxResponseTime >= fields.timeout * 1000) {
        throw badRequest("MAX_RESPONSE_TIME_TOO_LONG", "The round-trip limit must be below the timeout");
      }
    },
    check: (fields, ctx) => checkPing(fields, pinger(), ctx.policy, ctx.resolve, ctx.signal),
    target: (fields) => fields.host,
    facts: (fields) => ({ packets: fields.pingCount }),
  };
}
