import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE } from "../../../net/targets";
import { closedPort, selfSignedCert } from "../../test-target";
import { smtpSettings } from "./settings";
import { smtpType } from "./smtp";
import { context, messageOf, silentServer } from "./test-servers";

const PASSWORD = "s3cret-pass";
const cert = selfSignedCert(30);
if (!cert) throw new Error("openssl is needed for the mail tests");

const servers: SMTPServer[] = [];
const connections = { count: 0 };
/** A real SMTP server (smtp-server) on 127.0.0.1 with the self-signed certificate; user "vigil" / PASSWORD. */
async function smtpServer(options: SMTPServerOptions = {}): Promise<number> {
  const server = new SMTPServer({
    key: cert!.key,
    cert: cert!.cert,
    banner: "Vigil test relay",
    authOptional: true,
    logger: false,
    disableReverseLookup: true,
    onConnect(_session, callback) {
      connections.count++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === "busy") return callback(Object.assign(new Error(`try later, ${auth.password} is not checked now`), { responseCode: 454 }));
      if (auth.username === "vigil" && auth.password === PASSWORD) return callback(null, { user: "vigil" });
      callback(new Error(`Invalid username or password ${auth.password}`));
    },
    ...options,
  });
  server.on("error", () => {}); // a client that hangs up mid-handshake (the implicit-TLS-on-STARTTLS case)
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.server.address() as { port: number }).port;
}

let starttlsPort = 0;
let tlsPort = 0;
let plainOnlyPort = 0;
beforeAll(async () => {
  starttlsPort = await smtpServer();
  tlsPort = await smtpServer({ secure: true });
  plainOnlyPort = await smtpServer({ disabledCommands: ["STARTTLS"] });
});
afterAll(() => servers.forEach((s) => s.close()));

const settings = (port: number, over: Partial<Parameters<typeof smtpType.check>[0]> = {}) => ({
  host: "127.0.0.1",
  port,
  security: "starttls" as const,
  ignoreTls: true,
  username: "",
  password: "",
  keyword: "",
  tlsExpiryDays: null,
  ...over,
});
const DAY = 86_400_000;

describe("smtp check against smtp-server", () => {
  test("STARTTLS: up, with the response time and the certificate's expiry", async () => {
    const r = await smtpType.check(settings(starttlsPort, { keyword: "vigil TEST" }), context());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime!).toBeGreaterThanOrEqual(0);
    expect(r.tlsExpiresAt! - Date.now()).toBeGreaterThan(29 * DAY);
    expect(r.tlsExpiresAt! - Date.now()).toBeLessThan(31 * DAY);
  });

  test("implicit TLS and plain text are up; plain text has no certificate", async () => {
    expect(await smtpType.check(settings(tlsPort, { security: "tls" }), context())).toMatchObject({ up: true, error: null });
    expect(await smtpType.check(settings(starttlsPort, { security: "none" }), context())).toMatchObject({ up: true, error: null, tlsExpiresAt: null });
  });

  test("login: right credentials up; wrong ones AUTH_FAILED, the password in no error", async () => {
    expect(await smtpType.check(settings(starttlsPort, { username: "vigil", password: PASSWORD }), context())).toMatchObject({ up: true });
    const r = await smtpType.check(settings(starttlsPort, { username: "vigil", password: `${PASSWORD}-wrong` }), context());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "authentication failed" });
  });

  test("a server's temporary refusal quoting the password: its words, the password masked", async () => {
    const r = await smtpType.check(settings(starttlsPort, { username: "busy", password: PASSWORD }), context());
    expect(r.up).toBe(false);
    expect(r.error).toStartWith("SMTP error: ");
    expect(r.error).toContain("••••••••");
    expect(r.error).not.toContain(PASSWORD);
  });

  test("STARTTLS required but not offered: STARTTLS not offered", async () => {
    expect(await smtpType.check(settings(plainOnlyPort), context())).toMatchObject({ up: false, error: "STARTTLS not offered" });
  });

  test("a self-signed certificate without ignoreTls is a TLS error", async () => {
    expect(await smtpType.check(settings(starttlsPort, { ignoreTls: false }), context())).toMatchObject({ up: false, error: "TLS error: self-signed certificate" });
    expect((await smtpType.check(settings(tlsPort, { security: "tls", ignoreTls: false }), context())).error).toBe("TLS error: self-signed certificate");
  });

  test("implicit TLS against a STARTTLS port is a TLS error", async () => {
    expect((await smtpType.check(settings(starttlsPort, { security: "tls" }), context())).error).toStartWith("TLS error: ");
  });

  test("bad assertions: a keyword not in the banner; a certificate expiring within the warning", async () => {
    expect(await smtpType.check(settings(starttlsPort, { keyword: "Postfix" }), context())).toMatchObject({ up: false, error: 'keyword "Postfix" not found' });
    const r = await smtpType.check(settings(starttlsPort, { tlsExpiryDays: 60 }), context());
    expect(r).toMatchObject({ up: false, error: "TLS certificate expires in 29 days" });
    expect(r.responseTime).not.toBeNull();
    expect(r.tlsExpiresAt).toBeGreaterThan(Date.now());
  });

  test("a host name resolving to the server: up (STARTTLS with the name as the TLS name)", async () => {
    const resolve = async (h: string) => (h === "mail.test" ? ["127.0.0.1"] : []);
    const r = await smtpType.check(settings(starttlsPort, { host: "mail.test" }), { ...context(), resolve });
    expect(r).toMatchObject({ up: true });
  });
});

describe("smtp check, failures", () => {
  test("nothing listening: connection refused", async () => {
    expect(await smtpType.check(settings(closedPort()), context())).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
  });

  for (const security of ["starttls", "tls"] as const) {
    test(`a server that never greets (${security}): the timeout sentence within the timeout, the connection closed`, async () => {
      const silent = await silentServer();
      try {
        const started = performance.now();
        const r = await smtpType.check(settings(silent.port, { security }), context(500));
        expect(r).toEqual({ up: false, responseTime: null, error: "timeout after 0.5 s", tlsExpiresAt: null });
        // Bounded: the timeout and a margin for a loaded machine (the connection is proven closed below).
        expect(performance.now() - started).toBeLessThan(2500);
        await Bun.sleep(100);
        expect(silent.accepted()).toBe(1);
        expect(silent.closed()).toBe(1);
      } finally {
        silent.stop();
      }
    });
  }

  test("a stopped check is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await smtpType.check(settings(starttlsPort), { ...context(), signal: controller.signal })).error).toBe("check cancelled");
  });

  test("the address policy refuses a private address: no connection made", async () => {
    const before = connections.count;
    const r = await smtpType.check(settings(starttlsPort), context(2000, { allowPrivate: false }));
    expect(r.up).toBe(false);
    expect(r.error).toStartWith("Target refused: ");
    await Bun.sleep(50);
    expect(connections.count).toBe(before);
  });
});

describe("smtp settings", () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };
  const base = { host: "mail.example.com" };

  test("defaults: STARTTLS on the usual port, no login, no keyword, no expiry warning", () => {
    expect(messageOf(smtpSettings, base)).toBeNull();
    const s = { ...settings(0), host: "mail.example.com", port: null };
    expect(smtpType.target(s)).toBe("mail.example.com:587");
    expect(smtpType.target({ ...s, security: "tls" })).toBe("mail.example.com:465");
    expect(smtpType.target({ ...s, security: "none" })).toBe("mail.example.com:25");
    expect(smtpType.target({ ...s, host: "::1", port: 2525 })).toBe("[::1]:2525");
  });

  test("a bad field gives its message", () => {
    expect(messageOf(smtpSettings, {})).toStartWith("Host must be");
    expect(messageOf(smtpSettings, { ...base, port: 70000 })).toBe("Port must be a whole number from 1 to 65535, or empty");
    expect(messageOf(smtpSettings, { ...base, security: "ssl" })).toBe("Security must be one of: starttls, tls, none");
    expect(messageOf(smtpSettings, { ...base, tlsExpiryDays: 0 })).toStartWith("TLS expiry warning must be");
    expect(messageOf(smtpSettings, { ...base, password: "x".repeat(1025) })).toBe("The password must be text of at most 1024 characters");
    expect(messageOf(smtpSettings, { ...base, ignoreTls: "yes" })).toBe("ignoreTls must be true or false");
  });

  test("the password is the one secret", () => {
    expect(Object.entries(smtpSettings.properties).filter(([, p]) => (p as { secret?: unknown }).secret).map(([k]) => k)).toEqual(["password"]);
  });

  test("normalise: the host in its usual form; a URL or a metadata address refused", () => {
    const s = settings(25, { host: " Mail.Example.com. " });
    expect(smtpType.normalise!(s, ALLOW_PRIVATE).host).toBe("mail.example.com");
    expect(codeOf(() => smtpType.normalise!({ ...s, host: "smtp://x" }, ALLOW_PRIVATE))).toBe("INVALID_HOST");
    expect(codeOf(() => smtpType.normalise!({ ...s, host: "169.254.169.254" }, ALLOW_PRIVATE))).toBe("TARGET_FORBIDDEN");
  });
});
