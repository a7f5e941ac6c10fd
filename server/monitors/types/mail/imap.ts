// The imap type: connect (implicit TLS, STARTTLS or plain), read the greeting, optionally log in, LOGOUT. Client:
// imapflow, given a small transport of node:net/node:tls sockets so that the server's certificate can be read.
import { connect as netConnect } from "node:net";
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from "node:tls";
import type { ImapFlowOptions } from "imapflow";

// Loaded on the first check, not at start-up: the client library costs memory only where the type is used.
const imapflow = (): typeof import("imapflow") => require("imapflow");
import { CHECK_ERROR_TEXT } from "../../check-errors";
import type { SettingsCheckType } from "../settings-type";
import { checkMail, closeSocket, mailTarget, normaliseMail, StartTlsMissing, type MailSession, type MailTarget } from "./check";
import { imapSettings } from "./settings";

type Transport = NonNullable<ImapFlowOptions["transport"]>;

/**
 * imapflow's transport interface over node's sockets, noting the certificate of every TLS socket it opens and every
 * socket (closed for sure by closeSocket).
 */
function certificateNotingTransport(onCertificate: (c: PeerCertificate) => void, sockets: unknown[]): Transport {
  const secured = (socket: TLSSocket, then: () => void) => () => {
    onCertificate(socket.getPeerCertificate());
    then();
  };
  const noted = <T>(socket: T): T => {
    sockets.push(socket);
    return socket;
  };
  return {
    connect(o, onConnect) {
      if (!o.secure) return noted(netConnect({ host: o.host, port: o.port }, onConnect));
      const socket: TLSSocket = tlsConnect({ ...o.tls, host: o.host, port: o.port, servername: o.servername }, () => secured(socket, onConnect)());
      return noted(socket);
    },
    upgrade(plain, o, onSecure) {
      const socket: TLSSocket = tlsConnect({ ...o.tls, socket: plain as never, servername: o.servername }, () => secured(socket, onSecure)());
      return noted(socket);
    },
  };
}

function openImap(t: MailTarget): MailSession {
  let certificate: PeerCertificate | null = null;
  const sockets: unknown[] = [];
  const client = new (imapflow().ImapFlow)({
    host: t.address,
    port: t.port,
    secure: t.security === "tls",
    // true: STARTTLS required (fails when not offered); false: never.
    doSTARTTLS: t.security === "starttls" ? true : t.security === "none" ? false : undefined,
    servername: t.servername,
    auth: t.username ? { user: t.username, pass: t.password } : undefined,
    tls: { rejectUnauthorized: !t.ignoreTls },
    transport: certificateNotingTransport((c) => (certificate = c), sockets),
    logger: false,
    // Log in (when asked), then LOGOUT: nothing else is sent.
    verifyOnly: true,
    connectionTimeout: t.libraryTimeoutMs,
    greetingTimeout: t.libraryTimeoutMs,
    socketTimeout: t.libraryTimeoutMs,
  } as ImapFlowOptions);
  client.on("error", () => {}); // failures reach connect(); a late socket error must not be unhandled
  const done = (async () => {
    try {
      await client.connect();
    } catch (e) {
      const err = e as { authenticationFailed?: boolean; tlsFailed?: boolean; message?: string };
      if (err?.tlsFailed && /does not support STARTTLS/i.test(err.message ?? "")) throw new StartTlsMissing();
      // No credentials: imapflow stops at the login step, after the greeting (and STARTTLS): that is all we wanted.
      if (!(err?.authenticationFailed && !t.username && client.greeting !== undefined)) throw e;
    }
    return { banner: client.greeting ?? "" };
  })();
  return {
    done,
    certificate: () => certificate,
    close: () => {
      sockets.reverse().forEach(closeSocket);
      client.close();
    },
  };
}

export const imapType: SettingsCheckType<typeof imapSettings> = {
  type: "imap",
  schema: imapSettings,
  runsOnAgents: false,
  normalise: normaliseMail,
  check: (settings, ctx) =>
    checkMail("IMAP", imapSettings, settings, ctx, openImap, (e) => ((e as { authenticationFailed?: boolean })?.authenticationFailed ? CHECK_ERROR_TEXT.AUTH_FAILED : null)),
  target: (s) => mailTarget("IMAP", s),
};
