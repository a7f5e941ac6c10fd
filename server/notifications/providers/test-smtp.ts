// Test support (not a test): a local SMTP server (smtp-server) that keeps what arrives.
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export interface Arrived {
  from: string;
  to: string[];
  raw: string;
  user?: string;
}

let server: SMTPServer | undefined;

/** Stops the server the test started (call it in afterEach). */
export async function stopSmtp() {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
}

/** A real SMTP server on 127.0.0.1 recording every message that arrives (raw, envelope, the signed-in user). */
export async function startSmtp(options: SMTPServerOptions = {}): Promise<{ port: number; arrived: Arrived[] }> {
  const arrived: Arrived[] = [];
  server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        arrived.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          user: session.user as string | undefined,
        });
        done();
      });
    },
    ...options,
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { port: (server.server.address() as AddressInfo).port, arrived };
}
