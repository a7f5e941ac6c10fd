// The ntp type: one SNTP (RFC 4330) client query over UDP. Up when the server answers synchronised, at a stratum no
// higher than maxStratum and with our clock within maxOffsetMs of its; response time = the round-trip delay.
// Hand-written: the protocol is one 48-byte packet each way.
import { createSocket } from "node:dgram";
import { isIP } from "node:net";
import type { Static } from "@sinclair/typebox";
import { badRequest } from "../../../http/http-error";
import { literalProblem } from "../../../net/targets";
import { ntpOffsetError, ntpStratumError, protocolError } from "../../check-errors";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import type { SettingsCheckResult, SettingsCheckType } from "../settings-type";
import { ntpSettings } from "./settings";

type NtpSettings = Static<typeof ntpSettings>;

/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_UNIX_OFFSET = 2_208_988_800;
const TWO_32 = 2 ** 32;

/** The wall clock in ms with sub-ms precision (the offset is a difference of clocks, so Date.now() alone is coarse). */
const wallClock = () => performance.timeOrigin + performance.now();

/** A Unix time in ms as an NTP timestamp (seconds since 1900, fraction in 1/2^32 s). */
export function writeTimestamp(ms: number, into: Buffer, at: number): void {
  const seconds = Math.floor(ms / 1000);
  into.writeUInt32BE((seconds + NTP_UNIX_OFFSET) % TWO_32, at);
  into.writeUInt32BE(Math.floor(((ms - seconds * 1000) / 1000) * TWO_32), at + 4);
}

/** An NTP timestamp as Unix ms; seconds below 2^31 are read as era 1 (after February 2036), as RFC 4330 §3 says. */
export function readTimestamp(from: Buffer, at: number): number {
  const raw = from.readUInt32BE(at);
  const seconds = (raw < 0x8000_0000 ? raw + TWO_32 : raw) - NTP_UNIX_OFFSET;
  return seconds * 1000 + (from.readUInt32BE(at + 4) / TWO_32) * 1000;
}

/** A client request: LI 0, version 4, mode 3 (client), our send time as the transmit timestamp. */
export function request(sentAt: number): Buffer {
  const packet = Buffer.alloc(48);
  packet[0] = (0 << 6) | (4 << 3) | 3;
  writeTimestamp(sentAt, packet, 40);
  return packet;
}

export interface NtpAnswer {
  stratum: number;
  /** Server clock minus ours, ms. */
  offsetMs: number;
  /** Round-trip delay without the server's own time, ms. */
  delayMs: number;
}

/**
 * A server's reply to `sent` (received at `receivedAt`, ms): the answer, an error sentence, or null when the packet
 * is not the answer to our request (its origin timestamp is not our transmit timestamp: late or forged) and is ignored.
 */
export function readReply(reply: Buffer, sent: Buffer, receivedAt: number): NtpAnswer | string | null {
  if (reply.length < 48) return protocolError("NTP", `reply of ${reply.length} bytes, expected 48`);
  if (!reply.subarray(24, 32).equals(sent.subarray(40, 48))) return null;
  const leap = reply[0]! >> 6;
  const mode = reply[0]! & 7;
  const stratum = reply[1]!;
  if (mode !== 4) return protocolError("NTP", `reply in mode ${mode}, expected 4 (server)`);
  if (stratum === 0) {
    // Kiss-o'-death: the reference id carries a four-letter code (RATE, DENY, RSTR…).
    const code = reply.subarray(12, 16).toString("latin1").replace(/[^\x20-\x7e]/g, "").trim();
    return protocolError("NTP", `kiss-o'-death ${code || "(no code)"}`);
  }
  if (leap === 3 || stratum >= 16) return protocolError("NTP", "server clock not synchronised");
  if (reply.readUInt32BE(40) === 0 && reply.readUInt32BE(44) === 0) return protocolError("NTP", "reply without a transmit time");
  const t1 = readTimestamp(sent, 40);
  const t2 = readTimestamp(reply, 32);
  const t3 = readTimestamp(reply, 40);
  return { stratum, offsetMs: (t2 - t1 + (t3 - receivedAt)) / 2, delayMs: Math.max(0, receivedAt - t1 - (t3 - t2)) };
}

/** The verdict on an answer by the monitor's limits. */
export function judge(answer: NtpAnswer, settings: Pick<NtpSettings, "maxStratum" | "maxOffsetMs">): string | null {
  if (answer.stratum > settings.maxStratum) return ntpStratumError(answer.stratum, settings.maxStratum);
  const offset = Math.abs(answer.offsetMs);
  return offset > settings.maxOffsetMs ? ntpOffsetError(offset, settings.maxOffsetMs) : null;
}

/** Sends one request to address:port and waits for its answer (or an error sentence) within timeoutMs. */
function query(address: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<NtpAnswer | string> {
  const seconds = timeoutMs / 1000;
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(describeError(signal.reason, seconds));
    const socket = createSocket(isIP(address) === 6 ? "udp6" : "udp4");
    let sent: Buffer | null = null;
    const finish = (result: NtpAnswer | string) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      try {
        socket.close();
      } catch {
        // already closed
      }
      resolve(result);
    };
    const onAbort = () => finish(describeError(signal.reason, seconds));
    const timer = setTimeout(() => finish(describeError(Object.assign(new Error("timeout"), { name: "TimeoutError" }), seconds)), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    // A connected socket hears only this server and learns of "port unreachable" (ECONNREFUSED).
    socket.on("error", (e) => finish(describeError(e, seconds)));
    socket.on("message", (message) => {
      if (!sent) return;
      const answer = readReply(message, sent, wallClock());
      if (answer !== null) finish(answer);
    });
    socket.connect(port, address, () => {
      sent = request(wallClock());
      socket.send(sent, (e) => e && finish(describeError(e, seconds)));
    });
  });
}

export const ntpType: SettingsCheckType<typeof ntpSettings> = {
  type: "ntp",
  schema: ntpSettings,
  runsOnAgents: false,
  normalise(settings, policy) {
    const host = normaliseTargetHost(settings.host);
    const problem = literalProblem(host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    return { ...settings, host };
  },
  async check(settings, ctx): Promise<SettingsCheckResult> {
    const reach = await reachHost(settings.host, ctx.policy, ctx.resolve);
    if (reach.error !== undefined) return { up: false, responseTime: null, error: reach.error };
    const answer = await query(reach.address, settings.port, ctx.timeoutMs, ctx.signal);
    if (typeof answer === "string") return { up: false, responseTime: null, error: answer };
    const error = judge(answer, settings);
    return { up: error === null, responseTime: Math.round(answer.delayMs), error };
  },
  target: (s) => (isIP(s.host) === 6 ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`),
};
