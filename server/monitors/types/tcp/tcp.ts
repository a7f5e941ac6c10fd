// The tcp check type: up when a connection to host:port opens within the timeout; response time = connect time.
import { isIP, createConnection } from "node:net";
import { badRequest } from "../../../http/http-error";
import { literalProblem, type Resolve, type TargetPolicy } from "../../../net/targets";
import { timeoutError } from "../../check-errors";
import type { MonitorFields } from "../../field-rules";
import type { CheckOutcome, CheckType } from "../check-type";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";

export type TcpTarget = Pick<MonitorFields, "host" | "port" | "timeout">;

/** Opens one connection and closes it at once (nothing is sent). */
function connectTime(address: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
    const started = performance.now();
    const socket = createConnection({ host: address, port });
    const finish = (error: unknown, ms?: number) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      if (error) reject(error);
      else resolve(ms!);
    };
    const onAbort = () => finish(Object.assign(new Error("aborted"), { name: "AbortError" }));
    const timer = setTimeout(() => finish(Object.assign(new Error("timeout"), { name: "TimeoutError" })), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => finish(null, performance.now() - started));
    socket.once("error", (e) => finish(e));
  });
}

/**
 * One TCP check. The host is resolved here and the connection goes to the address checked against the policy (a
 * name cannot resolve to an allowed address for the check and a forbidden one for the connection).
 */
export async function checkTcp(target: TcpTarget, policy: TargetPolicy, resolve: Resolve, signal?: AbortSignal): Promise<CheckOutcome> {
  const time = Date.now();
  const down = (error: string): CheckOutcome => ({ time, up: false, responseTime: null, httpStatus: null, error });
  const reach = await reachHost(target.host, policy, resolve);
  if (reach.error !== undefined) return down(reach.error);
  const address = reach.address;
  try {
    const ms = await connectTime(address, target.port ?? 0, target.timeout * 1000, signal);
    return { time, up: true, responseTime: Math.max(0, Math.round(ms)), httpStatus: null, error: null };
  } catch (e) {
    return down((e as Error).name === "TimeoutError" ? timeoutError(target.timeout) : describeError(e, target.timeout));
  }
}

export const tcpType: CheckType = {
  type: "tcp",
  validate(fields, policy) {
    fields.host = normaliseTargetHost(fields.host);
    if (fields.port == null) throw badRequest("PORT_REQUIRED", "Port is required: a whole number from 1 to 65535");
    const problem = literalProblem(fields.host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
  },
  check: (fields, ctx) => checkTcp(fields, ctx.policy, ctx.resolve, ctx.signal),
  target: (fields) => (isIP(fields.host) === 6 ? `[${fields.host}]:${fields.port}` : `${fields.host}:${fields.port}`),
  facts: (fields) => ({ port: fields.port ?? undefined }),
};
