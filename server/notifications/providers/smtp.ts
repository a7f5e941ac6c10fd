// E-mail through your own mail server, with nodemailer: a plain-text and an HTML part. Security "tls" is implicit TLS
// (usually port 465), "starttls" requires the upgrade (587), "none" sends as the server allows (25, a local relay).
// The server's reply code decides: 4xx is transient (retried), 5xx final (a wrong password, a refused sender).
import { isIP } from "node:net";
import nodemailer from "nodemailer";
import { ipOf } from "../../net/host-address";
import { COLOURS, html, recipients, sender } from "./email";
import { check, describe, fail, requiredText, text } from "./fields";
import { OK, redact, snippet } from "./http";
import type { ChannelConfigs } from "../public";
import type { Provider, SendContext, SendResult } from "./provider";

const SECURITY = ["none", "starttls", "tls"] as const;
const DEFAULT_PORT = { none: 25, starttls: 587, tls: 465 } as const;
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

interface MailError {
  message?: string;
  code?: string;
  responseCode?: number;
  command?: string;
}

/** nodemailer's error as a verdict: network trouble and 4xx replies are retried; the password never shows. */
function verdict(e: unknown, secrets: string[]): SendResult {
  const err = (e ?? {}) as MailError;
  const reply = err.responseCode;
  const message = redact(snippet(String(err.message ?? e)), secrets);
  if (reply !== undefined) return { ok: false, error: `SMTP ${reply}: ${message}`, retryable: reply >= 400 && reply < 500 };
  // ECONNECTION, ETIMEDOUT, ESOCKET, EDNS…: the server could not be reached or spoke no SMTP; EAUTH without a code
  // and ETLS (a certificate refused) stay so until the settings change.
  const certificate = /certificate|self[ -]signed|unable to verify/i.test(message);
  const final = certificate || err.code === "EAUTH" || err.code === "ETLS" || err.code === "EENVELOPE";
  return { ok: false, error: `SMTP: ${message}`, retryable: !final };
}

export const smtp: Provider<"smtp"> = {
  type: "smtp",
  secretFields: ["password"],
  // Mail servers rarely say; one message every two seconds keeps clear of most relays' limits.
  perMinute: 30,

  target: (config) => ({ host: config.host }),
  validate: (input) =>
    check(input, (config) => {
      const host = requiredText(config, "host", { code: "SMTP_HOST_REQUIRED", message: "SMTP server is required" });
      if (!HOST.test(host) && !isIP(host)) fail("SMTP_HOST_INVALID", "SMTP server must be a host name or an IP address");
      const security = text(config, "security") || "starttls";
      if (!(SECURITY as readonly string[]).includes(security)) fail("VALIDATION", `security must be none, starttls or tls (got ${describe(config.security)})`);
      const sec = security as (typeof SECURITY)[number];
      const rawPort = config.port;
      const port = rawPort === undefined || rawPort === null || rawPort === "" ? DEFAULT_PORT[sec] : Number(rawPort);
      if (!Number.isInteger(port) || port < 1 || port > 65535) fail("SMTP_PORT_INVALID", "Port must be 1-65535");
      const username = text(config, "username");
      const password = text(config, "password", true);
      if (password && !username) fail("SMTP_USERNAME_REQUIRED", "A password needs a username");
      const ignoreTls = config.ignoreTls === true;
      if (config.ignoreTls !== undefined && typeof config.ignoreTls !== "boolean") fail("VALIDATION", `ignoreTls must be true or false (got ${describe(config.ignoreTls)})`);
      return {
        // An address in another spelling ("2130706433") is kept as the address it stands for, which is what is reached.
        host: ipOf(host) ?? host,
        port,
        security: sec,
        ...(username ? { username } : {}),
        ...(password ? { password } : {}),
        from: sender(config),
        to: recipients(config),
        ...(ignoreTls ? { ignoreTls } : {}),
      };
    }),

  send: (config, message, ctx) =>
    sendMail(config, {
      to: config.to,
      subject: message.title,
      text: message.lines.length ? [message.title, "", ...message.lines].join("\n") : message.title,
      html: html(message.title, message.lines, COLOURS[message.severity]),
    }, ctx),
};

/** A file attached to a mail (a scheduled report's CSVs). */
export interface MailAttachment {
  filename: string;
  content: string;
  contentType: string;
}

/** One mail through an SMTP channel's server (also status-page subscriber mails and scheduled reports). */
export async function sendMail(
  config: ChannelConfigs["smtp"],
  mail: { to: string | string[]; subject: string; text: string; html: string; headers?: Record<string, string>; attachments?: MailAttachment[] },
  ctx: Pick<SendContext, "timeoutMs" | "hostProblem">,
): Promise<SendResult> {
  const refused = await ctx.hostProblem?.(config.host);
  if (refused) return { ok: false, error: `Target refused: ${refused}`, retryable: false };
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.security === "tls",
    requireTLS: config.security === "starttls",
    ...(config.username ? { auth: { user: config.username, pass: config.password ?? "" } } : {}),
    tls: { rejectUnauthorized: !config.ignoreTls, servername: isIP(config.host) ? undefined : config.host },
    connectionTimeout: ctx.timeoutMs,
    greetingTimeout: ctx.timeoutMs,
    socketTimeout: ctx.timeoutMs,
  });
  try {
    await transport.sendMail({ from: config.from, ...mail, headers: { "X-Mailer": "Vigil", ...mail.headers } });
    return OK;
  } catch (e) {
    return verdict(e, config.password ? [config.password] : []);
  } finally {
    transport.close();
  }
}
