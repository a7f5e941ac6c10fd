// The smtp type: connect (STARTTLS, implicit TLS or plain), read the greeting, optionally log in, QUIT. Client:
// nodemailer's SMTP connection (nodemailer is already Vigil's mail sender).
import type { PeerCertificate, TLSSocket } from "node:tls";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { CHECK_ERROR_TEXT, protocolError } from "../../check-errors";
import type { SettingsCheckType } from "../settings-type";
import { checkMail, closeSocket, mailTarget, normaliseMail, StartTlsMissing, type MailSession, type MailTarget } from "./check";
import { smtpSettings } from "./settings";

/** nodemailer hands its log lines to a logger: the first server line is the greeting; everything else is dropped. */
function greetingLogger(onServerLine: (line: string) => void) {
  const ignore = () => {};
  return {
    level: ignore,
    trace: ignore,
    debug: (meta: { tnx?: string } | undefined, ...args: unknown[]) => meta?.tnx === "server" && onServerLine(String(args[0] ?? "")),
    info: ignore,
    warn: ignore,
    error: ignore,
    fatal: ignore,
  };
}

function openSmtp(t: MailTarget): MailSession {
  let greeting: string | null = null;
  let certificate: PeerCertificate | null = null;
  const connection = new SMTPConnection({
    host: t.address,
    port: t.port,
    secure: t.security === "tls",
    ignoreTLS: t.security === "none",
    servername: t.servername,
    tls: { rejectUnauthorized: !t.ignoreTls },
    // Only server lines reach the logger (transactionLog without debug): the greeting is read from there.
    logger: greetingLogger((line) => (greeting ??= line)),
    transactionLog: true,
    connectionTimeout: t.libraryTimeoutMs,
    greetingTimeout: t.libraryTimeoutMs,
    socketTimeout: t.libraryTimeoutMs,
  });
  // Failures arrive as 'error' events (the connect callback only hears of a close before the greeting).
  const failed = new Promise<never>((_, reject) => connection.on("error", reject));
  const step = <T>(run: (done: (e?: Error | null, v?: T) => void) => void) =>
    Promise.race([failed, new Promise<T>((resolve, reject) => run((e, v) => (e ? reject(e) : resolve(v as T))))]);

  const done = (async () => {
    await step<void>((cb) => connection.connect((e) => cb(e)));
    if (connection.secure) certificate = (connection._socket as TLSSocket).getPeerCertificate();
    // Without requireTLS nodemailer goes on in plain text when STARTTLS is not offered: that is our failure.
    if (t.security === "starttls" && !connection.secure) throw new StartTlsMissing();
    if (t.username) await step<boolean>((cb) => connection.login({ user: t.username, pass: t.password }, cb));
    connection.quit();
    return { banner: (greeting ?? "").replace(/^\d{3}[ -]/, "") };
  })();
  return {
    done,
    certificate: () => certificate,
    close: () => {
      closeSocket(connection._socket);
      connection.close();
    },
  };
}

export const smtpType: SettingsCheckType<typeof smtpSettings> = {
  type: "smtp",
  schema: smtpSettings,
  runsOnAgents: false,
  normalise: normaliseMail,
  check: (settings, ctx) =>
    checkMail("SMTP", smtpSettings, settings, ctx, openSmtp, (e) => {
      const err = e as { code?: string; responseCode?: number; message?: string };
      if (err?.code !== "EAUTH") return null;
      // 535 and other 5xx: the credentials were refused; a 4xx is a server trouble worth its own words.
      return err.responseCode && err.responseCode < 500 ? protocolError("SMTP", err.message ?? "") : CHECK_ERROR_TEXT.AUTH_FAILED;
    }),
  target: (s) => mailTarget("SMTP", s),
};
