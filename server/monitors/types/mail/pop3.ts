// The pop3 type: connect (implicit TLS, STLS or plain), read the greeting, optionally log in (USER/PASS), QUIT.
// Client: node-pop3, which speaks the commands; it has no STLS, so the upgrade (RFC 2595) is done on its socket here.
import { once } from "node:events";
import type { Socket } from "node:net";
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from "node:tls";
import type Pop3Command from "node-pop3";

// Loaded on the first check, not at start-up: the client library costs memory only where the type is used.
const Pop3 = (): typeof Pop3Command => require("node-pop3");
import { CHECK_ERROR_TEXT } from "../../check-errors";
import type { SettingsCheckType } from "../settings-type";
import { checkMail, closeSocket, mailTarget, normaliseMail, StartTlsMissing, type MailSession, type MailTarget } from "./check";
import { pop3Settings } from "./settings";

class LoginRefused extends Error {}

/**
 * STLS: asks for TLS on the plain connection and goes on over it. node-pop3 reads replies through its socket's "data"
 * listeners, so they move to the TLS socket, which then stands in for the plain one.
 */
async function startTls(pop: Pop3Command & { _socket: Socket }, t: MailTarget): Promise<PeerCertificate> {
  try {
    await pop.command("STLS");
  } catch (e) {
    if ((e as { command?: string })?.command) throw new StartTlsMissing();
    throw e;
  }
  const plain = pop._socket;
  const readers = plain.listeners("data") as ((chunk: Buffer) => void)[];
  plain.removeAllListeners("data");
  const secure = tlsConnect({ socket: plain, servername: t.servername, rejectUnauthorized: !t.ignoreTls });
  await Promise.race([once(secure, "secureConnect"), once(secure, "error").then(([e]) => Promise.reject(e))]);
  for (const read of readers) secure.on("data", read);
  secure.on("error", () => {}); // a later failure reaches the command waiting for a reply, as node-pop3's own errors do
  pop._socket = secure as unknown as Socket;
  return secure.getPeerCertificate();
}

function openPop3(t: MailTarget): MailSession {
  let greeting: string | null = null;
  let certificate: PeerCertificate | null = null;
  const pop = new (Pop3())({
    host: t.address,
    port: t.port,
    tls: t.security === "tls",
    timeout: t.libraryTimeoutMs,
    user: t.username,
    password: t.password,
    servername: t.servername,
    // node-pop3 falls back to the host as the TLS name, which TLS refuses for an address: none then.
    tlsOptions: { rejectUnauthorized: !t.ignoreTls, ...(t.servername ? {} : { servername: undefined }) },
  });
  pop.on("response", (info: string) => (greeting ??= info));
  pop.on("error", () => {}); // a "-ERR" reaches the command waiting for it; none may go unhandled
  const done = (async () => {
    await pop.connect();
    if (t.security === "tls") certificate = (pop._socket as TLSSocket).getPeerCertificate();
    if (t.security === "starttls") certificate = await startTls(pop as never, t);
    if (t.username) {
      try {
        await pop.command("USER", t.username);
        await pop.command("PASS", t.password);
      } catch (e) {
        // node-pop3 names the command a "-ERR" answered; a socket error has none.
        throw (e as { command?: string })?.command ? new LoginRefused() : e;
      }
    }
    await pop.command("QUIT");
    return { banner: greeting ?? "" };
  })();
  return { done, certificate: () => certificate, close: () => closeSocket(pop._socket) };
}

export const pop3Type: SettingsCheckType<typeof pop3Settings> = {
  type: "pop3",
  schema: pop3Settings,
  runsOnAgents: false,
  normalise: normaliseMail,
  check: (settings, ctx) =>
    checkMail("POP3", pop3Settings, settings, ctx, openPop3, (e) => (e instanceof LoginRefused ? CHECK_ERROR_TEXT.AUTH_FAILED : null)),
  target: (s) => mailTarget("POP3", s),
};
