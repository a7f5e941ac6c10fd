// The mongodb check type: the official driver connects with the monitor's connection string and runs one read-only
// command (ping by default); the reply must say ok: 1 and may have to contain a keyword.
//
// The address policy: every host written in the string is judged (names resolved) before the driver starts, and the
// driver resolves every name it connects to through a lookup that judges the addresses too — that covers a +srv
// string's hosts (the SRV record's targets, known only once the driver asked DNS) and members a replica set reports.
// Members a replica set reports as IP addresses skip any lookup: they are judged when the driver adds them, and a
// refused one stops the check at once.
import type { Static } from "@sinclair/typebox";
import type { Document, MongoClient, MongoClientOptions } from "mongodb";

// Loaded on the first check, not at start-up: the client library costs memory only where the type is used.
const driver = (): typeof import("mongodb") => require("mongodb");
import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { badRequest } from "../../../http/http-error";
import { addressProblem, literalAddress, literalProblem } from "../../../net/targets";
import { CHECK_ERROR_TEXT, keywordMissingError, protocolError, queryFailedError, replyUnexpectedError, timeoutError } from "../../check-errors";
import { parseHost } from "../address";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import { scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { COMMAND_MESSAGE, parseCommand, parseHosts } from "./command";
import { mongodbSettings } from "./settings";

type MongoSettings = Static<typeof mongodbSettings>;
type Failure = { name?: string; code?: unknown; codeName?: string; message?: string; cause?: unknown; reason?: { servers?: Map<string, { error?: unknown }> } };

/** A refusal by the address policy, carried through the driver as a lookup error. */
class Refused extends Error {
  readonly code = "ETARGETREFUSED";
}

/** A driver error as a check-errors.ts sentence. */
function sentence(error: unknown, seconds: number): string {
  const e = error as Failure;
  if (e instanceof Refused) return e.message;
  if (e?.code === 18 || e?.codeName === "AuthenticationFailed" || e?.name === "MongoMissingCredentialsError") return CHECK_ERROR_TEXT.AUTH_FAILED;
  if (["TimeoutError", "MongoNetworkTimeoutError", "MongoOperationTimeoutError", "MongoWaitQueueTimeoutError"].includes(e?.name ?? "")) return timeoutError(seconds);
  if (e?.name === "AbortError") return CHECK_ERROR_TEXT.CANCELLED;
  if (e?.name === "MongoServerSelectionError") {
    // Why no server could be selected: the first server's own failure, or nothing heard at all (a timeout).
    for (const server of e.reason?.servers?.values() ?? []) if (server.error) return sentence(server.error, seconds);
    return timeoutError(seconds);
  }
  if (e?.name === "MongoServerError") return queryFailedError(String(e.message));
  if (e?.name === "MongoNetworkError") {
    if (e.cause) return sentence(e.cause, seconds);
    if (/closed/i.test(String(e.message))) return CHECK_ERROR_TEXT.RESET;
  }
  if (e?.name === "MongoParseError" || e?.name === "MongoInvalidArgumentError" || e?.name === "MongoAPIError") return protocolError("MongoDB", String(e.message));
  return describeError(error, seconds);
}

/** The reply as the keyword is searched in: Extended JSON, relaxed (numbers as numbers). */
const replyText = (reply: unknown) => driver().BSON.EJSON.stringify(reply as Document, { relaxed: true });

export async function checkMongodb(s: MongoSettings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const deadline = performance.now() + ctx.timeoutMs;
  const seconds = ctx.timeoutMs / 1000;
  const secrets = secretValues(mongodbSettings, s);
  const down = (error: string, responseTime: number | null = null): SettingsCheckResult => ({ up: false, responseTime, error: scrub(error, secrets) });
  const command = parseCommand(s.command);
  if (!command) return down(protocolError("MongoDB", COMMAND_MESSAGE));
  const parsed = parseHosts(s.connectionString);
  if (!parsed) return down(protocolError("MongoDB", "the connection string names no valid host"));
  if (!parsed.srv) {
    for (const { host } of parsed.hosts) {
      const reach = await reachHost(host, ctx.policy, ctx.resolve);
      if (reach.error !== undefined) return down(reach.error);
    }
  } else {
    const problem = literalProblem(parsed.hosts[0]!.host, ctx.policy);
    if (problem) return down(`Target refused: ${problem}`);
  }
  if (ctx.signal.aborted) return down(CHECK_ERROR_TEXT.CANCELLED);

  const left = () => Math.max(1, Math.round(deadline - performance.now()));
  let fail: (e: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  // Every name the driver connects to, judged as reachHost judges one: all its addresses allowed, or none used.
  const lookup = (hostname: string, options: { all?: boolean; family?: number }, callback: (...a: unknown[]) => void) => {
    ctx.resolve(hostname).then(
      (addresses) => {
        for (const a of addresses) {
          const problem = addressProblem(a, ctx.policy);
          if (problem) {
            const refused = new Refused(`Target refused: ${hostname} resolves to ${problem}`);
            fail(refused);
            return callback(refused);
          }
        }
        const found: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) || 4 }));
        if (!found.length) return callback(Object.assign(new Error(CHECK_ERROR_TEXT.DNS), { code: "ENOTFOUND" }));
        if (options?.all) callback(null, found);
        else callback(null, found[0]!.address, found[0]!.family);
      },
      () => callback(Object.assign(new Error(CHECK_ERROR_TEXT.DNS), { code: "ENOTFOUND" })),
    );
  };
  const query = s.connectionString.split("?")[1] ?? "";
  const single = !parsed.srv && parsed.hosts.length === 1 && !/(^|&)(directConnection|replicaSet|loadBalanced)=/i.test(query);
  // The driver gives up a little before the check does: close(true) does not end a connection still in its
  // handshake (the driver's own timeout closes it), so that timeout should come as early as it can.
  const driverMs = Math.max(1, left() - Math.min(200, ctx.timeoutMs / 10));
  const options: MongoClientOptions = {
    serverSelectionTimeoutMS: driverMs,
    connectTimeoutMS: driverMs,
    socketTimeoutMS: driverMs,
    waitQueueTimeoutMS: driverMs,
    // One host: talk to it, whatever its replica set role (ping answers on a secondary too).
    ...(single ? { directConnection: true } : {}),
    maxPoolSize: 1,
    retryReads: false,
    retryWrites: false,
    serverMonitoringMode: "poll",
    appName: "Vigil",
    lookup: lookup as MongoClientOptions["lookup"],
  };
  let client: MongoClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => fail(ctx.signal.reason?.name === "TimeoutError" ? ctx.signal.reason : Object.assign(new Error("aborted"), { name: "AbortError" }));
  const started = performance.now();
  try {
    client = new (driver().MongoClient)(s.connectionString, options);
    timer = setTimeout(() => fail(Object.assign(new Error("timeout"), { name: "TimeoutError" })), left());
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    client.on("serverOpening", (event) => {
      const host = event.address.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
      const address = literalAddress(host);
      const problem = address === null ? null : addressProblem(address, ctx.policy);
      if (problem) fail(new Refused(`Target refused: ${problem}`));
    });
    // The driver retries an unreachable server until server selection gives up; with one host, its first failure
    // (refused, unreachable, TLS…) is the answer.
    if (single) client.on("serverHeartbeatFailed", (event) => fail(event.failure));
    const db = client.db(s.database);
    const sent = db.command(command);
    sent.catch(() => {});
    const reply = await Promise.race([sent, failed]);
    const ms = Math.max(0, Math.round(performance.now() - started));
    if (reply.ok !== 1) return down(replyUnexpectedError(replyText(reply)), ms);
    if (s.expected && !replyText(reply).includes(s.expected)) return down(keywordMissingError(s.expected), ms);
    return { up: true, responseTime: ms, error: null };
  } catch (e) {
    return down(sentence(e, seconds));
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    await client?.close(true).catch(() => {});
  }
}

export const mongodbType: SettingsCheckType<typeof mongodbSettings> = {
  type: "mongodb",
  schema: mongodbSettings,
  runsOnAgents: false,
  normalise(s, policy) {
    const connectionString = s.connectionString.trim();
    const parsed = parseHosts(connectionString);
    if (!parsed) throw badRequest("INVALID_CONNECTION_STRING", mongodbSettings.properties.connectionString.error as string);
    for (const { host } of parsed.hosts) {
      if (parseHost(host) === null) throw badRequest("INVALID_HOST", `Connection string: ${host} is not a host name or an IP address`);
      const problem = literalProblem(host, policy);
      if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    }
    try {
      // The driver's own reading of the options (no connection is made).
      new (driver().MongoClient)(connectionString);
    } catch (e) {
      throw badRequest("INVALID_CONNECTION_STRING", scrub(`Connection string: ${(e as Error).message}`, secretValues(mongodbSettings, s)));
    }
    const command = s.command.trim();
    if (!parseCommand(command)) throw badRequest("COMMAND_NOT_ALLOWED", COMMAND_MESSAGE);
    return { ...s, connectionString, command };
  },
  check: checkMongodb,
  target(s) {
    const parsed = parseHosts(s.connectionString);
    if (!parsed) return "";
    return parsed.hosts.map(({ host, port }) => (parsed.srv ? host : `${isIP(host) === 6 ? `[${host}]` : host}:${port}`)).join(",");
  },
};
