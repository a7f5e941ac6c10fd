// The imap and pop3 types against a real Dovecot (Debian's dovecot-imapd + dovecot-pop3d), started once for the file
// in a temp dir on free ports and stopped by PID.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedPort, selfSignedCert } from "../../test-target";
import { imapType } from "./imap";
import { pop3Type } from "./pop3";
import { imapSettings, pop3Settings } from "./settings";
import { context, messageOf, silentServer, waitFor } from "./test-servers";

const DOVECOT = Bun.which("dovecot") ?? Bun.which("/usr/sbin/dovecot");
const noServer = !DOVECOT && !process.env.CI;
const PASSWORD = "s3cret-pass";
const DAY = 86_400_000;

const ports = { imap: 0, imaps: 0, pop3: 0, pop3s: 0 };
let dir = "";
let dovecot: ReturnType<typeof Bun.spawn> | null = null;

beforeAll(async () => {
  if (!DOVECOT) return;
  const cert = selfSignedCert(30);
  if (!cert) throw new Error("openssl is needed for the mail tests");
  dir = mkdtempSync(join(tmpdir(), "vigil-dovecot-"));
  chmodSync(dir, 0o755); // the login processes (dovenull) read below it
  writeFileSync(join(dir, "cert.pem"), cert.cert);
  writeFileSync(join(dir, "key.pem"), cert.key);
  mkdirSync(join(dir, "mail"));
  chmodSync(join(dir, "mail"), 0o777); // written by "nobody"
  // One user, mail stored as "nobody" (Dovecot runs no mail process as root).
  writeFileSync(join(dir, "users"), `vigil:{PLAIN}${PASSWORD}:65534:65534::${join(dir, "mail", "vigil")}\n`);
  // A free port found now may be taken by another process before Dovecot binds it (the suites run side by side):
  // Dovecot then exits at once, and is started again on other ports.
  for (let attempt = 1; ; attempt++) {
    if (await startDovecot()) return;
    const stderr = dovecot?.exitCode !== null && dovecot?.stderr instanceof ReadableStream ? await new Response(dovecot.stderr).text() : "";
    dovecot?.kill();
    await dovecot?.exited;
    const log = await Bun.file(join(dir, "dovecot.log")).text().catch(() => "");
    if (attempt === 3) throw new Error(`dovecot did not start: ${log}${stderr}`);
  }
});

/** Writes the configuration on fresh ports and starts Dovecot; true once it answers IMAP, false if it exits or is slow. */
async function startDovecot(): Promise<boolean> {
  for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = closedPort();
  const listener = (name: string, port: number, ssl = false) => `  inet_listener ${name} {\n    port = ${port}\n${ssl ? "    ssl = yes\n" : ""}  }`;
  writeFileSync(
    join(dir, "dovecot.conf"),
    `base_dir = ${join(dir, "run")}
state_dir = ${join(dir, "state")}
log_path = ${join(dir, "dovecot.log")}
protocols = imap pop3
listen = 127.0.0.1
ssl = yes
ssl_cert = <${join(dir, "cert.pem")}
ssl_key = <${join(dir, "key.pem")}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
login_greeting = Vigil test ready
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${join(dir, "users")}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${join(dir, "users")}
}
# No growing delay after the wrong-password tests (anvil's auth penalty per IP).
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
${listener("imap", ports.imap)}
${listener("imaps", ports.imaps, true)}
}
service pop3-login {
${listener("pop3", ports.pop3)}
${listener("pop3s", ports.pop3s, true)}
}
`,
  );
  const proc = Bun.spawn([DOVECOT!, "-F", "-c", join(dir, "dovecot.conf")], { stdout: "ignore", stderr: "pipe" });
  dovecot = proc;
  return waitFor(async () => {
    if (proc.exitCode !== null) return true; // stop waiting: it is gone
    return (await imapType.check(imap(ports.imap, { security: "none" }), context(500))).up;
  }, 15_000).then((done) => done && proc.exitCode === null);
}

afterAll(async () => {
  if (dovecot) {
    dovecot.kill();
    await dovecot.exited;
  }
  fakes.forEach((s) => s.close());
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const base = { host: "127.0.0.1", ignoreTls: true, username: "", password: "", keyword: "", tlsExpiryDays: null };
const imap = (port: number, over: Partial<Parameters<typeof imapType.check>[0]> = {}) => ({ ...base, port, security: "tls" as const, ...over });
const pop3 = (port: number, over: Partial<Parameters<typeof pop3Type.check>[0]> = {}) => ({ ...base, port, security: "tls" as const, ...over });
const login = { username: "vigil", password: PASSWORD };
const wrong = { username: "vigil", password: `${PASSWORD}-wrong` };

/** An IMAP server that offers no STARTTLS: a greeting, CAPABILITY without it, LOGOUT (all imapflow asks here). */
const fakes: Server[] = [];
async function imapWithoutStarttls(): Promise<number> {
  const server = createServer((socket) => {
    socket.on("error", () => {});
    socket.write("* OK fake IMAP ready\r\n");
    socket.on("data", (data) => {
      for (const line of data.toString().split("\r\n").filter(Boolean)) {
        const [tag, command] = line.split(" ");
        if (command?.toUpperCase() === "CAPABILITY") socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
        else if (command?.toUpperCase() === "LOGOUT") socket.end(`* BYE\r\n${tag} OK bye\r\n`);
        else socket.write(`${tag} BAD not here\r\n`);
      }
    });
  });
  fakes.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

/** A POP3 server that answers STLS with -ERR (as one without TLS configured does). */
async function pop3WithoutStls(): Promise<number> {
  const server = createServer((socket) => {
    socket.on("error", () => {});
    socket.write("+OK fake POP3 ready\r\n");
    socket.on("data", (data) => {
      for (const line of data.toString().split("\r\n").filter(Boolean)) {
        if (line.toUpperCase() === "QUIT") socket.end("+OK bye\r\n");
        else socket.write("-ERR not here\r\n");
      }
    });
  });
  fakes.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

describe.skipIf(noServer)("imap check against dovecot", () => {
  test("implicit TLS, with login: up, the certificate's expiry, the banner's keyword", async () => {
    const r = await imapType.check(imap(ports.imaps, { ...login, keyword: "vigil TEST" }), context());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime!).toBeGreaterThanOrEqual(0);
    expect(r.tlsExpiresAt! - Date.now()).toBeGreaterThan(29 * DAY);
  });

  test("STARTTLS with login, and without; plain text without a certificate", async () => {
    expect(await imapType.check(imap(ports.imap, { security: "starttls", ...login }), context())).toMatchObject({ up: true, error: null });
    const r = await imapType.check(imap(ports.imap, { security: "starttls" }), context());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.tlsExpiresAt).toBeGreaterThan(Date.now());
    expect(await imapType.check(imap(ports.imap, { security: "none", ...login }), context())).toMatchObject({ up: true, tlsExpiresAt: null });
  });

  test("wrong password: authentication failed, the password in no error", async () => {
    const r = await imapType.check(imap(ports.imaps, wrong), context());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "authentication failed" });
    expect(JSON.stringify(r)).not.toContain(PASSWORD);
  });

  test("a self-signed certificate without ignoreTls is a TLS error (implicit and STARTTLS)", async () => {
    expect((await imapType.check(imap(ports.imaps, { ignoreTls: false }), context())).error).toBe("TLS error: self-signed certificate");
    expect((await imapType.check(imap(ports.imap, { security: "starttls", ignoreTls: false }), context())).error).toBe("TLS error: self-signed certificate");
  });

  test("bad assertions: a keyword not in the banner; a certificate expiring within the warning", async () => {
    expect((await imapType.check(imap(ports.imaps, { keyword: "Exchange" }), context())).error).toBe('keyword "Exchange" not found');
    expect((await imapType.check(imap(ports.imaps, { tlsExpiryDays: 60 }), context())).error).toBe("TLS certificate expires in 29 days");
  });
});

describe.skipIf(noServer)("pop3 check against dovecot", () => {
  test("implicit TLS with login: up, the certificate's expiry, the banner's keyword", async () => {
    const r = await pop3Type.check(pop3(ports.pop3s, { ...login, keyword: "ready" }), context());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.tlsExpiresAt! - Date.now()).toBeGreaterThan(29 * DAY);
  });

  test("STARTTLS (STLS) with login, and without: the certificate read after the upgrade; a self-signed one refused unless ignored", async () => {
    const r = await pop3Type.check(pop3(ports.pop3, { security: "starttls", ...login, keyword: "ready" }), context());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.tlsExpiresAt! - Date.now()).toBeGreaterThan(29 * DAY);
    expect(await pop3Type.check(pop3(ports.pop3, { security: "starttls" }), context())).toMatchObject({ up: true, error: null });
    expect((await pop3Type.check(pop3(ports.pop3, { security: "starttls", ...wrong }), context())).error).toBe("authentication failed");
    expect((await pop3Type.check(pop3(ports.pop3, { security: "starttls", ignoreTls: false }), context())).error).toBe("TLS error: self-signed certificate");
  });

  test("plain text, with and without login", async () => {
    expect(await pop3Type.check(pop3(ports.pop3, { security: "none", ...login }), context())).toMatchObject({ up: true, tlsExpiresAt: null });
    expect(await pop3Type.check(pop3(ports.pop3, { security: "none" }), context())).toMatchObject({ up: true });
  });

  test("wrong password: authentication failed, the password in no error", async () => {
    const r = await pop3Type.check(pop3(ports.pop3s, wrong), context());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "authentication failed" });
    expect(JSON.stringify(r)).not.toContain(PASSWORD);
  });

  test("a self-signed certificate without ignoreTls is a TLS error", async () => {
    expect((await pop3Type.check(pop3(ports.pop3s, { ignoreTls: false }), context())).error).toBe("TLS error: self-signed certificate");
  });

  test("bad assertions: keyword, certificate expiry", async () => {
    expect((await pop3Type.check(pop3(ports.pop3s, { keyword: "Exchange" }), context())).error).toBe('keyword "Exchange" not found');
    expect((await pop3Type.check(pop3(ports.pop3s, { tlsExpiryDays: 60 }), context())).error).toBe("TLS certificate expires in 29 days");
  });
});

describe("imap and pop3, failures", () => {
  test("STARTTLS required, not offered (imap, pop3)", async () => {
    expect((await imapType.check(imap(await imapWithoutStarttls(), { security: "starttls" }), context())).error).toBe("STARTTLS not offered");
    expect((await pop3Type.check(pop3(await pop3WithoutStls(), { security: "starttls" }), context())).error).toBe("STARTTLS not offered");
  });

  test("nothing listening: connection refused", async () => {
    expect((await imapType.check(imap(closedPort()), context())).error).toBe("connection refused");
    expect((await pop3Type.check(pop3(closedPort()), context())).error).toBe("connection refused");
  });

  for (const [name, run] of [
    ["imap, TLS", (port: number) => imapType.check(imap(port), context(500))],
    ["imap, plain", (port: number) => imapType.check(imap(port, { security: "none" }), context(500))],
    ["pop3, TLS", (port: number) => pop3Type.check(pop3(port), context(500))],
    ["pop3, plain", (port: number) => pop3Type.check(pop3(port, { security: "none" }), context(500))],
  ] as const) {
    test(`${name}: a server that never answers: the timeout sentence within the timeout, the connection closed`, async () => {
      const silent = await silentServer();
      try {
        const started = performance.now();
        const r = await run(silent.port);
        expect(r).toMatchObject({ up: false, responseTime: null, error: "timeout after 0.5 s" });
        expect(performance.now() - started).toBeLessThan(2500);
        await Bun.sleep(100);
        expect(silent.accepted()).toBe(1);
        expect(silent.closed()).toBe(1);
      } finally {
        silent.stop();
      }
    });
  }

  test("the address policy refuses a private address: no connection made", async () => {
    const silent = await silentServer();
    try {
      for (const r of [await imapType.check(imap(silent.port), context(2000, { allowPrivate: false })), await pop3Type.check(pop3(silent.port), context(2000, { allowPrivate: false }))]) {
        expect(r.up).toBe(false);
        expect(r.error).toStartWith("Target refused: ");
      }
      await Bun.sleep(50);
      expect(silent.accepted()).toBe(0);
    } finally {
      silent.stop();
    }
  });
});

describe("imap and pop3 settings", () => {
  test("defaults: implicit TLS on the usual port", () => {
    expect(messageOf(imapSettings, { host: "mail.example.com" })).toBeNull();
    expect(imapType.target(imap(0, { host: "mail.example.com", port: null } as never))).toBe("mail.example.com:993");
    expect(imapType.target(imap(0, { host: "mail.example.com", port: null, security: "starttls" } as never))).toBe("mail.example.com:143");
    expect(pop3Type.target(pop3(0, { host: "mail.example.com", port: null } as never))).toBe("mail.example.com:995");
    expect(pop3Type.target(pop3(0, { host: "mail.example.com", port: null, security: "none" } as never))).toBe("mail.example.com:110");
  });

  test("security choices: an unknown one refused with its message", () => {
    expect(messageOf(pop3Settings, { host: "mail.example.com", security: "starttls" })).toBeNull();
    expect(messageOf(pop3Settings, { host: "mail.example.com", security: "ssl" })).toBe("Security must be one of: tls, starttls, none");
    expect(messageOf(imapSettings, { host: "mail.example.com", security: "ssl" })).toBe("Security must be one of: starttls, tls, none");
  });
});
