// What the smtp, imap and pop3 types share: the target as the address policy allows it, the session bounded by the
// timeout and always closed, and the verdict on what it found (the banner's keyword, the certificate's expiry).
import { closeSocket } from "../../../net/close-socket";
export { closeSocket };
import { isIP } from "node:net";
import type { PeerCertificate } from "node:tls";
import type { Static, TObject } from "@sinclair/typebox";
import { badRequest } from "../../../http/http-error";
import { literalProblem, type TargetPolicy } from "../../../net/targets";
import { CHECK_ERROR_TEXT, keywordMissingError, parseCheckError, protocolError, tlsExpiresSoonError } from "../../check-errors";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import { scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult } from "../settings-type";
import type { imapSettings } from "./settings";

export type MailProtocol = "SMTP" | "IMAP" | "POP3";
/** The fields the three types share (pop3 has fewer security choices). */
export type MailSettings = Static<typeof imapSettings>;
export type Security = MailSettings["security"];

export interface MailTarget {
  /** The address the policy allowed: what is connected to. */
  address: string;
  /** The host name for TLS (SNI and the certificate's name); undefined when the host is an address. */
  servername: string | undefined;
  port: number;
  security: Security;
  ignoreTls: boolean;
  username: string;
  password: string;
  /** The libraries' own timeouts: past the check's, so that the check's timeout is what reports. */
  libraryTimeoutMs: number;
}

/** A session as a protocol module runs it: `done` settles with the server's greeting; `close` ends it at any point. */
export interface MailSession {
  done: Promise<{ banner: string }>;
  /** The server's certificate once TLS is up (implicit or STARTTLS), else null. */
  certificate(): PeerCertificate | null;
  close(): void;
}

/** A protocol's reading of a failure: a check-errors sentence, or null for the generic reading. */
export type Explain = (error: unknown, target: MailTarget) => string | null;

/** Thrown by a session when STARTTLS was asked for and the server did not offer it. */
export class StartTlsMissing extends Error {}

const USUAL_PORTS: Record<MailProtocol, Record<Security, number>> = {
  SMTP: { starttls: 587, tls: 465, none: 25 },
  IMAP: { starttls: 143, tls: 993, none: 143 },
  POP3: { starttls: 110, tls: 995, none: 110 },
};
export const mailPort = (protocol: MailProtocol, s: Pick<MailSettings, "port" | "security">) => s.port ?? USUAL_PORTS[protocol][s.security];

export function normaliseMail<S extends MailSettings>(settings: S, policy: TargetPolicy): S {
  const host = normaliseTargetHost(settings.host);
  const problem = literalProblem(host, policy);
  if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
  return { ...settings, host };
}

export function mailTarget(protocol: MailProtocol, s: Pick<MailSettings, "host" | "port" | "security">): string {
  const port = mailPort(protocol, s);
  return isIP(s.host) === 6 ? `[${s.host}]:${port}` : `${s.host}:${port}`;
}

/** The generic reading: a network or TLS failure by its code (the libraries wrap it), else "<protocol> error: …". */
function explain(protocol: MailProtocol, error: unknown, seconds: number): string {
  if (error instanceof StartTlsMissing) return CHECK_ERROR_TEXT.STARTTLS_MISSING;
  const e = error as { name?: string; code?: string; originalCode?: string; message?: string };
  const sentence = describeError({ name: e?.name, code: e?.originalCode ?? e?.code, message: e?.message }, seconds);
  return parseCheckError(sentence).code === "OTHER" ? protocolError(protocol, String(e?.message ?? error)) : sentence;
}

function expiryProblem(expiresAt: number | null, days: number | null, now: number): string | null {
  if (days === null || expiresAt === null) return null;
  if (expiresAt <= now) return CHECK_ERROR_TEXT.TLS_EXPIRED;
  const left = Math.floor((expiresAt - now) / 86_400_000);
  return left < days ? tlsExpiresSoonError(left) : null;
}

/** One check of a mail server: `open` starts the protocol's session against the target the policy allowed. */
export async function checkMail(
  protocol: MailProtocol,
  schema: TObject,
  settings: MailSettings,
  ctx: SettingsCheckContext,
  open: (target: MailTarget) => MailSession,
  explainProtocol: Explain,
): Promise<SettingsCheckResult> {
  const secrets = secretValues(schema, settings);
  const seconds = ctx.timeoutMs / 1000;
  const down = (error: string, tlsExpiresAt: number | null = null): SettingsCheckResult => ({ up: false, responseTime: null, error: scrub(error, secrets), tlsExpiresAt });
  if (ctx.signal.aborted) return down(describeError(ctx.signal.reason, seconds));
  const reach = await reachHost(settings.host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return down(reach.error);
  const target: MailTarget = {
    address: reach.address,
    servername: isIP(settings.host) ? undefined : settings.host,
    port: mailPort(protocol, settings),
    security: settings.security,
    ignoreTls: settings.ignoreTls,
    username: settings.username,
    password: settings.password,
    libraryTimeoutMs: ctx.timeoutMs + 1000,
  };
  const started = performance.now();
  const session = open(target);
  session.done.catch(() => {}); // read below, or dropped when the timeout wins
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { name: "TimeoutError" })), ctx.timeoutMs);
    onAbort = () => reject(ctx.signal.reason);
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  const expiresAt = () => {
    const validTo = session.certificate()?.valid_to;
    const at = validTo ? Date.parse(validTo) : NaN;
    return Number.isFinite(at) ? at : null;
  };
  try {
    const { banner } = await Promise.race([session.done, stopped]);
    const responseTime = Math.max(0, Math.round(performance.now() - started));
    const tlsExpiresAt = expiresAt();
    const keyword = settings.keyword;
    const error =
      (keyword && !banner.toLowerCase().includes(keyword.toLowerCase()) ? keywordMissingError(keyword) : null) ??
      expiryProblem(tlsExpiresAt, settings.tlsExpiryDays, ctx.now());
    return { up: error === null, responseTime, error: error === null ? null : scrub(error, secrets), tlsExpiresAt };
  } catch (e) {
    const name = (e as { name?: string })?.name;
    const known = name === "TimeoutError" || name === "AbortError" ? null : explainProtocol(e, target);
    return down(known ?? explain(protocol, e, seconds), expiresAt());
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    session.close();
  }
}
