import { afterEach, describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import { smtp } from "./smtp";
import { startSmtp, stopSmtp } from "./test-smtp";
import { closedPort, context, MESSAGE } from "./test-fake";

// Against a real SMTP server on 127.0.0.1 (smtp-server): what arrives (headers, both parts), authentication, the
// three security modes, and the server's own verdicts.

afterEach(stopSmtp);

const base = (port: number, over: Record<string, unknown> = {}) => {
  const v = smtp.validate({ host: "127.0.0.1", port, security: "none", from: "Vigil <vigil@example.com>", to: "ops@example.com, dev@example.com", ...over });
  if (!v.ok) throw new Error(v.error.message);
  return v.config;
};
const ctx = () => context(null, { timeoutMs: 5_000 });

describe("smtp send", () => {
  test("a plain-text and an HTML part, the sender, the recipients and the subject arrive", async () => {
    const { port, arrived } = await startSmtp();
    expect(await smtp.send(base(port), MESSAGE, ctx())).toEqual({ ok: true });
    expect(arrived).toHaveLength(1);
    expect(arrived[0].from).toBe("vigil@example.com");
    expect(arrived[0].to).toEqual(["ops@example.com", "dev@example.com"]);
    const mail = await simpleParser(arrived[0].raw);
    expect(mail.subject).toBe(MESSAGE.title);
    expect(mail.from?.text).toBe('"Vigil" <vigil@example.com>');
    expect(mail.headers.get("x-mailer")).toBe("Vigil");
    expect(mail.text?.trim()).toBe([MESSAGE.title, "", ...MESSAGE.lines].join("\n"));
    // The HTML part escapes what it shows.
    expect(mail.html).toContain("Monitor down: Shop &lt;API&gt; &amp; co");
    expect(mail.html).toContain("border-left:4px solid #dc2626");
  });

  test("with a username and password: AUTH, and a wrong password is final, never shown", async () => {
    const { port, arrived } = await startSmtp({
      authOptional: false,
      onAuth(auth, _session, done) {
        if (auth.username === "vigil" && auth.password === "s3cret-pass") return done(null, { user: "vigil" });
        done(Object.assign(new Error("Authentication failed s3cret-pass"), { responseCode: 535 }));
      },
    });
    expect(await smtp.send(base(port, { username: "vigil", password: "s3cret-pass" }), MESSAGE, ctx())).toEqual({ ok: true });
    expect(arrived[0].user).toBe("vigil");
    const wrong = await smtp.send(base(port, { username: "vigil", password: "nope-wrong" }), MESSAGE, ctx());
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.retryable).toBe(false);
      expect(wrong.error).toStartWith("SMTP 535");
      expect(wrong.error).not.toContain("nope-wrong");
    }
  });

  test("STARTTLS: required, a self-signed certificate refused unless told to ignore it", async () => {
    const { port, arrived } = await startSmtp({ disabledCommands: [] });
    const refused = await smtp.send(base(port, { security: "starttls" }), MESSAGE, ctx());
    expect(refused).toMatchObject({ ok: false, retryable: false });
    expect(await smtp.send(base(port, { security: "starttls", ignoreTls: true }), MESSAGE, ctx())).toEqual({ ok: true });
    expect(arrived).toHaveLength(1);
  });

  test("STARTTLS required but not offered: refused", async () => {
    const { port, arrived } = await startSmtp();
    const result = await smtp.send(base(port, { security: "starttls", ignoreTls: true }), MESSAGE, ctx());
    expect(result.ok).toBe(false);
    expect(arrived).toHaveLength(0);
  });

  test("implicit TLS", async () => {
    const { port, arrived } = await startSmtp({ secure: true, disabledCommands: [] });
    expect(await smtp.send(base(port, { security: "tls", ignoreTls: true }), MESSAGE, ctx())).toEqual({ ok: true });
    expect(arrived).toHaveLength(1);
  });

  test("the server's 4xx is retried, its 5xx is final", async () => {
    let reply = 451;
    const { port } = await startSmtp({
      onRcptTo(_address, _session, done) {
        done(Object.assign(new Error(reply === 451 ? "Try again later" : "No such user"), { responseCode: reply }));
      },
    });
    expect(await smtp.send(base(port), MESSAGE, ctx())).toMatchObject({ ok: false, retryable: true });
    reply = 550;
    const final = await smtp.send(base(port), MESSAGE, ctx());
    expect(final).toMatchObject({ ok: false, retryable: false });
    if (!final.ok) expect(final.error).toStartWith("SMTP 550");
  });

  test("a server that does not answer is retried; a refused target is not even tried", async () => {
    const down = await smtp.send(base(await closedPort()), MESSAGE, ctx());
    expect(down).toMatchObject({ ok: false, retryable: true });
    const refused = await smtp.send(base(25), MESSAGE, context(null, { hostProblem: async () => "a private address (127.0.0.1)" }));
    expect(refused).toEqual({ ok: false, error: "Target refused: a private address (127.0.0.1)", retryable: false });
  });
});

describe("smtp validate", () => {
  test("normalises: default port by security, recipients split, no empty fields kept", () => {
    expect(smtp.validate({ host: " mail.example.com ", from: "ops@example.com", to: ["a@example.com"], username: "", password: "" })).toEqual({
      ok: true,
      config: { host: "mail.example.com", port: 587, security: "starttls", from: "ops@example.com", to: ["a@example.com"] },
    });
    expect(smtp.validate({ host: "mail.example.com", security: "tls", from: "ops@example.com", to: "a@example.com; b@example.com" })).toMatchObject({ ok: true, config: { port: 465, to: ["a@example.com", "b@example.com"] } });
  });

  test("each bad input has its code", () => {
    const ok = { host: "mail.example.com", from: "ops@example.com", to: "a@example.com" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, host: "" }, "SMTP_HOST_REQUIRED"],
      [{ ...ok, host: "bad host!" }, "SMTP_HOST_INVALID"],
      [{ ...ok, port: 70000 }, "SMTP_PORT_INVALID"],
      [{ ...ok, port: "x" }, "SMTP_PORT_INVALID"],
      [{ ...ok, security: "ssl" }, "VALIDATION"],
      [{ ...ok, password: "p" }, "SMTP_USERNAME_REQUIRED"],
      [{ ...ok, from: "" }, "SENDER_REQUIRED"],
      [{ ...ok, from: "not an address" }, "SENDER_INVALID"],
      [{ ...ok, to: "" }, "RECIPIENT_REQUIRED"],
      [{ ...ok, to: "nobody" }, "RECIPIENT_INVALID"],
      [{ ...ok, ignoreTls: "yes" }, "VALIDATION"],
    ];
    for (const [config, code] of cases) {
      const v = smtp.validate(config);
      expect(v.ok ? "ok" : v.error.code).toBe(code);
    }
  });
});
