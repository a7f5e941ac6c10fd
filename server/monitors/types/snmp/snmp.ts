// The snmp type: one GET of an OID (v1, v2c or v3) and, when an expected value is set, its comparison. Client:
// net-snmp (pure JavaScript).
import { isIP } from "node:net";
import type { Static } from "@sinclair/typebox";
import type * as Snmp from "net-snmp";

// Loaded on the first check, not at start-up: the client library costs memory only where the type is used.
const snmpLib = (): typeof Snmp => require("net-snmp");
import { badRequest } from "../../../http/http-error";
import { literalProblem } from "../../../net/targets";
import { CHECK_ERROR_TEXT, protocolError, timeoutError, valueMismatchError } from "../../check-errors";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import { scrub, secretValues, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { snmpSettings } from "./settings";

type SnmpSettings = Static<typeof snmpSettings>;

/** A value as text: strings and addresses as they read, numbers in decimal (Counter64 too), other bytes in hex. */
export function valueText(vb: Snmp.Varbind): string {
  const { value, type } = vb;
  if (type === snmpLib().ObjectType.Counter64 && Buffer.isBuffer(value)) return value.length ? BigInt(`0x${value.toString("hex")}`).toString() : "0";
  if (Buffer.isBuffer(value)) {
    const text = value.toString("utf8");
    // Printable text (with tabs and line ends) reads as itself; anything else (a MAC address…) as hex.
    return /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/.test(text) && !text.includes("\ufffd") ? text : value.toString("hex").replace(/(..)(?!$)/g, "$1:");
  }
  return String(value);
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Whether `actual <operator> expected` holds: numbers compared as numbers, anything else as text. */
export function holds(actual: string, operator: SnmpSettings["operator"], expected: string): boolean {
  const numeric = NUMBER.test(actual) && NUMBER.test(expected);
  switch (operator) {
    case "contains":
      return actual.includes(expected);
    case "==":
      return numeric ? Number(actual) === Number(expected) : actual === expected;
    case "!=":
      return numeric ? Number(actual) !== Number(expected) : actual !== expected;
    case "<":
      return numeric && Number(actual) < Number(expected);
    case ">":
      return numeric && Number(actual) > Number(expected);
  }
}

function session(s: SnmpSettings, address: string, timeoutMs: number): Snmp.Session {
  // One retry inside the check's time: a single lost datagram should not make the agent down.
  const options: Snmp.SessionOptions = { port: s.port, transport: isIP(address) === 6 ? "udp6" : "udp4", timeout: Math.max(50, Math.floor(timeoutMs / 2)), retries: 1 };
  if (s.version !== "v3") return snmpLib().createSession(address, s.community, { ...options, version: s.version === "v1" ? snmpLib().Version1 : snmpLib().Version2c });
  const auth = s.securityLevel !== "noAuthNoPriv";
  const priv = s.securityLevel === "authPriv";
  return snmpLib().createV3Session(
    address,
    {
      name: s.username,
      level: snmpLib().SecurityLevel[s.securityLevel]!,
      ...(auth ? { authProtocol: snmpLib().AuthProtocols[s.authProtocol], authKey: s.authKey } : {}),
      ...(priv ? { privProtocol: snmpLib().PrivProtocols[s.privProtocol], privKey: s.privKey } : {}),
    },
    { ...options, version: snmpLib().Version3 },
  );
}

/** The GET's failure as a sentence (the caller scrubs secrets). */
function explain(error: unknown, seconds: number): string {
  const e = error as { name?: string; code?: number | string; message?: string };
  if (e?.name === "RequestTimedOutError") return timeoutError(seconds);
  // Wrong user, digest (auth key) or decryption (priv key): the agent's USM report, or our own digest check.
  if (e?.name === "ResponseInvalidError" && e.code === snmpLib().ResponseInvalidCode.EAuthFailure) return CHECK_ERROR_TEXT.AUTH_FAILED;
  if (e?.name === "ResponseInvalidError" || e?.name === "RequestFailedError") return protocolError("SNMP", e.message ?? "");
  return describeError(error, seconds);
}

async function get(s: SnmpSettings, address: string, timeoutMs: number, signal: AbortSignal): Promise<{ value: string; ms: number } | string> {
  const seconds = timeoutMs / 1000;
  if (signal.aborted) return describeError(signal.reason, seconds);
  let agent: Snmp.Session;
  try {
    agent = session(s, address, timeoutMs);
  } catch (e) {
    return explain(e, seconds);
  }
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const finish = (result: { value: string; ms: number } | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      try {
        agent.close();
      } catch {
        // already closed
      }
      resolve(result);
    };
    const onAbort = () => finish(describeError(signal.reason, seconds));
    const timer = setTimeout(() => finish(timeoutError(seconds)), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    agent.on("error", (e) => finish(explain(e, seconds)));
    agent.get([s.oid], (error, varbinds) => {
      if (error) return finish(explain(error, seconds));
      const vb = varbinds?.[0];
      if (!vb) return finish(protocolError("SNMP", "empty response"));
      if (snmpLib().isVarbindError(vb)) return finish(protocolError("SNMP", snmpLib().varbindError(vb)));
      finish({ value: valueText(vb), ms: performance.now() - started });
    });
  });
}

export const snmpType: SettingsCheckType<typeof snmpSettings> = {
  type: "snmp",
  schema: snmpSettings,
  runsOnAgents: false,
  normalise(settings, policy) {
    const host = normaliseTargetHost(settings.host);
    const problem = literalProblem(host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    if (settings.version === "v3") {
      if (!settings.username) throw badRequest("SNMP_USER_REQUIRED", "SNMP v3 needs a user name");
      // RFC 3414: a password shorter than 8 characters cannot make a key.
      if (settings.securityLevel !== "noAuthNoPriv" && settings.authKey.length < 8) throw badRequest("SNMP_KEY_REQUIRED", "The authentication key must be at least 8 characters");
      if (settings.securityLevel === "authPriv" && settings.privKey.length < 8) throw badRequest("SNMP_KEY_REQUIRED", "The privacy key must be at least 8 characters");
    }
    return { ...settings, host, oid: settings.oid.replace(/^\./, "") };
  },
  async check(settings, ctx): Promise<SettingsCheckResult> {
    const secrets = secretValues(snmpSettings, settings);
    const down = (error: string, responseTime: number | null = null): SettingsCheckResult => ({ up: false, responseTime, error: scrub(error, secrets) });
    const reach = await reachHost(settings.host, ctx.policy, ctx.resolve);
    if (reach.error !== undefined) return down(reach.error);
    const answer = await get({ ...settings, oid: settings.oid.replace(/^\./, "") }, reach.address, ctx.timeoutMs, ctx.signal);
    if (typeof answer === "string") return down(answer);
    const responseTime = Math.round(answer.ms);
    if (settings.expected !== "" && !holds(answer.value, settings.operator, settings.expected)) {
      return down(valueMismatchError(`${settings.operator} ${JSON.stringify(settings.expected)}`, JSON.stringify(answer.value)), responseTime);
    }
    return { up: true, responseTime, error: null };
  },
  target: (s) => `${isIP(s.host) === 6 ? `[${s.host}]` : s.host}:${s.port} ${s.oid}`,
};
