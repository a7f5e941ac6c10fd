// The redis check type: Bun's own Redis client connects (password or ACL user, TLS optional), selects the database
// and sends one read-only command (PING by default); the reply can be asserted. Bun's client is told not to reconnect,
// and its one command is queued until the connection is ready: that first command (not connect()) is what reports
// WRONGPASS/NOAUTH, which connect() hides behind "Connection closed".
import { RedisClient } from "bun";
import { createConnection, isIP } from "node:net";
import { badRequest } from "../../../http/http-error";
import { literalProblem } from "../../../net/targets";
import { CHECK_ERROR_TEXT, protocolError, queryFailedError, replyUnexpectedError, timeoutError, valueMismatchError } from "../../check-errors";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import { scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { COMMAND_MESSAGE, parseCommand } from "./command";
import { redisSettings } from "./settings";
import type { Static } from "@sinclair/typebox";

type RedisSettings = Static<typeof redisSettings>;

const bracketed = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/** The reply as the assertion reads it: strings as they are, numbers as digits, arrays and maps as JSON. */
function replyText(reply: unknown): string {
  if (typeof reply === "string") return reply;
  if (reply === null || reply === undefined) return "null";
  if (typeof reply === "number" || typeof reply === "bigint" || typeof reply === "boolean") return String(reply);
  return JSON.stringify(reply, (_, v) => (typeof v === "bigint" ? String(v) : v));
}

/** What is wrong with a reply, or null. */
function judgeReply(reply: unknown, command: { name: string; args: string[] }, s: RedisSettings): string | null {
  const text = replyText(reply);
  const shown = reply === null || reply === undefined ? "null" : JSON.stringify(text);
  if (s.expected !== "") {
    const ok = s.expectedMatch === "contains" ? text.includes(s.expected) : reply !== null && text === s.expected;
    return ok ? null : valueMismatchError(`${s.expectedMatch === "contains" ? "contains" : "=="} ${JSON.stringify(s.expected)}`, shown);
  }
  if (command.name === "PING" && command.args.length === 0 && reply !== "PONG") return replyUnexpectedError(shown);
  return null;
}

/**
 * Bun's client reports a connection that never opened (refused, unreachable) only as "Connection closed": one plain
 * TCP connect, within the time left, says which.
 */
function whyNotOpened(address: string, port: number, ms: number, seconds: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: address, port });
    const done = (sentence: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(sentence);
    };
    const timer = setTimeout(() => done(timeoutError(seconds)), Math.max(1, ms));
    socket.once("connect", () => done(protocolError("Redis", "the server closed the connection before it was ready")));
    socket.once("error", (e) => done(describeError(e, seconds)));
  });
}

export async function checkRedis(s: RedisSettings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const deadline = performance.now() + ctx.timeoutMs;
  const seconds = ctx.timeoutMs / 1000;
  const secrets = secretValues(redisSettings, s);
  const down = (error: string, responseTime: number | null = null): SettingsCheckResult => ({ up: false, responseTime, error: scrub(error, secrets) });
  const command = parseCommand(s.command);
  if (!command) return down(protocolError("Redis", COMMAND_MESSAGE));
  const reach = await reachHost(s.host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return down(reach.error);
  if (ctx.signal.aborted) return down(CHECK_ERROR_TEXT.CANCELLED);

  const auth = s.password || s.username ? `${encodeURIComponent(s.username)}:${encodeURIComponent(s.password)}@` : "";
  const url = `redis://${auth}${bracketed(reach.address)}:${s.port}${s.database ? `/${s.database}` : ""}`;
  // The connection goes to the address judged; with TLS the certificate is still checked against the name.
  const tls = s.tls ? { rejectUnauthorized: !s.ignoreTls, ...(isIP(s.host) ? {} : { serverName: s.host }) } : false;
  const left = () => Math.max(1, Math.round(deadline - performance.now()));
  let opened = false;
  let client: RedisClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const started = performance.now();
  try {
    client = new RedisClient(url, {
      connectionTimeout: left(),
      autoReconnect: false,
      enableOfflineQueue: true,
      enableAutoPipelining: false,
      tls,
    });
    client.onconnect = () => {
      opened = true;
    };
    client.onclose = () => {};
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { name: "TimeoutError" })), left());
      onAbort = () => reject(ctx.signal.reason?.name === "TimeoutError" ? ctx.signal.reason : Object.assign(new Error("aborted"), { name: "AbortError" }));
      ctx.signal.addEventListener("abort", onAbort, { once: true });
    });
    const sent = client.send(command.name, command.args);
    sent.catch(() => {}); // settled by close() after a timeout: nobody waits for it then
    const reply: unknown = await Promise.race([sent, stopped]);
    const ms = Math.max(0, Math.round(performance.now() - started));
    const problem = judgeReply(reply, command, s);
    return problem ? down(problem, ms) : { up: true, responseTime: ms, error: null };
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string };
    const message = String(err?.message ?? e);
    if (err?.code === "ERR_REDIS_AUTHENTICATION_FAILED" || /^(WRONGPASS|NOAUTH)\b/.test(message)) return down(CHECK_ERROR_TEXT.AUTH_FAILED);
    if (err?.name === "TimeoutError" || err?.code === "ERR_REDIS_CONNECTION_TIMEOUT") return down(timeoutError(seconds));
    if (err?.name === "AbortError") return down(CHECK_ERROR_TEXT.CANCELLED);
    if (err?.code === "ERR_REDIS_CONNECTION_CLOSED") {
      return down(opened ? CHECK_ERROR_TEXT.RESET : await whyNotOpened(reach.address, s.port, left(), seconds));
    }
    if (err?.code === "ERR_REDIS_SERVER_ERROR" || err?.code === "ERR_REDIS_INVALID_COMMAND") return down(queryFailedError(message));
    return down(describeError(e, seconds));
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    client?.close();
  }
}

export const redisType: SettingsCheckType<typeof redisSettings> = {
  type: "redis",
  schema: redisSettings,
  runsOnAgents: false,
  normalise(s, policy) {
    const host = normaliseTargetHost(s.host);
    const problem = literalProblem(host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    const command = parseCommand(s.command);
    if (!command) throw badRequest("COMMAND_NOT_ALLOWED", COMMAND_MESSAGE);
    // The name in capitals, the arguments as written.
    const trimmed = s.command.trim();
    return { ...s, host, command: command.name + trimmed.slice(trimmed.search(/\s|$/)) };
  },
  check: checkRedis,
  target: (s) => `${bracketed(s.host)}:${s.port}`,
};
