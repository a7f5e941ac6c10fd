import { afterEach, describe, expect, test } from "bun:test";
import { simpleParser, type ParsedMail } from "mailparser";
import type { SMTPServerOptions } from "smtp-server";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { startSmtp, stopSmtp, type Arrived } from "../notifications/providers/test-smtp";
import { testApp } from "../test-support";
import { CONFIRM_TTL_MS, RESEND_MS, RETRY_MS } from "./mailer";
import { IP_LIMIT } from "./service";

// Status-page subscribers end to end against a real local SMTP server: subscribe, the confirmation mail and its
// link, incident and maintenance notices with one-click unsubscribe, the admin's list, rate limits, bad input, and
// addresses never shown to anyone else.

const opened: { services: Services; db: Db }[] = [];
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    await services.subscribers.stop();
    await services.notifications.stop();
    await db.close();
  }
  await stopSmtp();
});

async function setup({ smtp = true, server = {} as SMTPServerOptions } = {}) {
  const { port, arrived } = await startSmtp(server);
  const db = await testDb();
  let skew = 0;
  const services = await createServices(db, { now: () => Date.now() + skew });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const settings = (await t.call<any>("GET", "/api/notifications/settings", { token })).body.settings;
  await t.call("PUT", "/api/notifications/settings", { token, body: { ...settings, language: "en-US", timeZone: "UTC" } });
  await t.call("PUT", "/api/status/config", { token, body: { title: "Acme status", description: "", monitorIds: [], agentIds: [], announcement: null } });
  if (smtp) {
    const channel = await t.call("POST", "/api/notifications/channels", { token, body: { name: "Mail", type: "smtp", config: { host: "127.0.0.1", port, security: "none", from: "Acme <status@acme.test>", to: "ops@acme.test" } } });
    expect(channel.status).toBe(201);
  }
  services.subscribers.start();
  const mails = async (n: number): Promise<ParsedMail[]> => {
    const until = Date.now() + 5_000;
    while (arrived.length < n && Date.now() < until) await Bun.sleep(20);
    await services.subscribers.idle();
    return Promise.all(arrived.map((a: Arrived) => simpleParser(a.raw)));
  };
  const subscribe = (email: unknown, slug = "default") => t.call("POST", `/api/status/pages/${slug}/subscribe`, { body: { email } });
  return { ...t, token, services, arrived, mails, subscribe, skew: (ms: number) => (skew = ms) };
}

const linkToken = (mail: ParsedMail, path: string) => new RegExp(`${path.replace(/[/?]/g, "\\$&")}\\?token=([\\w-]+)`).exec(mail.text ?? "")?.[1];

describe("subscribing", () => {
  test("subscribe, confirm by the mailed link, get incident and maintenance notices, one-click unsubscribe", async () => {
    const { call, token, subscribe, mails, arrived } = await setup();
    expect((await call<any>("GET", "/api/status/pages/default/subscriptions")).body.available).toBe(true);

    const r = await subscribe(" Visitor@Example.COM ");
    expect(r.status).toBe(202);
    expect(r.body.success).toBe(true);
    const [confirmation] = await mails(1);
    expect(arrived[0]!.to).toEqual(["visitor@example.com"]);
    expect(confirmation!.subject).toBe("Confirm your subscription to Acme status");
    const confirmToken = linkToken(confirmation!, "http://localhost/status/confirm")!;
    expect(confirmToken).toBeTruthy();

    // Asking again before confirming: the same answer, no second mail.
    expect((await subscribe("visitor@example.com")).status).toBe(202);
    await Bun.sleep(100);
    expect(arrived).toHaveLength(1);

    expect((await call("POST", "/api/status/subscriptions/confirm", { body: { token: "nope" } })).body.code).toBe("SUBSCRIPTION_LINK_INVALID");
    const confirmed = await call<any>("POST", "/api/status/subscriptions/confirm", { body: { token: confirmToken } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.page).toEqual({ title: "Acme status", slug: "default", path: "/status" });
    // The link works once.
    expect((await call("POST", "/api/status/subscriptions/confirm", { body: { token: confirmToken } })).status).toBe(400);

    // An incident on the page: a mail with the update, the page's link and the one-click unsubscribe headers.
    const incident = await call<any>("POST", "/api/incidents", { token, body: { title: "Checkout errors", impact: "major", pageIds: [1], update: { state: "investigating", message: "We are looking into failed payments.\nMore soon." } } });
    expect(incident.status).toBe(201);
    const [, first] = await mails(2);
    expect(first!.subject).toBe("[Acme status] Checkout errors: Investigating");
    expect(first!.text).toContain("We are looking into failed payments.\nMore soon.");
    expect(first!.text).toContain("Status page: http://localhost/status");
    expect(first!.html).toContain("We are looking into failed payments.");
    const unsubscribe = linkToken(first!, "http://localhost/status/unsubscribe")!;
    const head = arrived[1]!.raw.split("\r\n\r\n")[0]!.replace(/\r\n\s+/g, " ");
    expect(head).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(head).toContain(`List-Unsubscribe: <http://localhost/api/status/subscriptions/unsubscribe?token=${unsubscribe}>`);

    await call("POST", `/api/incidents/${incident.body.incident.id}/updates`, { token, body: { state: "resolved", message: "Fixed." } });
    const [, , second] = await mails(3);
    expect(second!.subject).toBe("[Acme status] Checkout errors: Resolved");

    const window = await call("POST", "/api/maintenance", {
      token,
      body: { title: "Database upgrade", description: "Short read-only period.", scope: "all", schedule: { kind: "weekly", weekdays: [1, 2, 3, 4, 5, 6, 7], time: "03:00", durationMinutes: 30, timezone: "UTC" } },
    });
    expect(window.status).toBe(201);
    const [, , , notice] = await mails(4);
    expect(notice!.subject).toBe("[Acme status] Scheduled maintenance: Database upgrade");
    expect(notice!.text).toContain("Short read-only period.");

    // One-click: what a mail client sends (RFC 8058). Then nothing more arrives.
    const oneClick = await call("POST", `/api/status/subscriptions/unsubscribe?token=${unsubscribe}`, { raw: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(oneClick.status).toBe(200);
    expect((await call("POST", "/api/status/subscriptions/unsubscribe", { body: { token: unsubscribe } })).body.code).toBe("SUBSCRIPTION_NOT_FOUND");
    expect((await call<any>("GET", "/api/status-pages/1/subscribers", { token })).body.confirmed).toBe(0);
    await call("POST", "/api/incidents", { token, body: { title: "Again", impact: "minor", pageIds: [1], update: { state: "investigating", message: "x" } } });
    await Bun.sleep(200);
    expect(arrived).toHaveLength(4);
  });

  test("a confirmation link expires; the address may ask again then", async () => {
    const { call, subscribe, mails, skew } = await setup();
    await subscribe("late@example.com");
    const [mail] = await mails(1);
    skew(CONFIRM_TTL_MS + 1_000);
    const r = await call("POST", "/api/status/subscriptions/confirm", { body: { token: linkToken(mail!, "http://localhost/status/confirm") } });
    expect([r.status, r.body.code]).toEqual([400, "SUBSCRIPTION_LINK_INVALID"]);
    expect((await subscribe("late@example.com")).status).toBe(202);
    expect(await mails(2)).toHaveLength(2);
  });

  test("bad input, pages without subscriptions, and the per-address limit", async () => {
    const { call, token, subscribe } = await setup();
    for (const bad of ["", "not-an-address", "a@b", `${"x".repeat(250)}@example.com`, 42, "a b@example.com"]) {
      const r = await subscribe(bad);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await subscribe("x@example.com", "nope")).body.code).toBe("STATUS_PAGE_NOT_FOUND");
    await call("POST", "/api/status-pages", { token, body: { slug: "inside", title: "Inside", description: "", logo: null, customDomain: null, visibility: "private", announcement: null, groups: [] } });
    expect((await call<any>("GET", "/api/status/pages/inside/subscriptions")).body.available).toBe(false);
    expect((await subscribe("x@example.com", "inside")).body.code).toBe("SUBSCRIPTIONS_UNAVAILABLE");
    expect((await call("POST", "/api/status/subscriptions/confirm", { body: {} })).status).toBe(400);
    expect((await call("POST", "/api/status/subscriptions/unsubscribe")).status).toBe(404);

    for (let i = 0; i < IP_LIMIT; i++) expect((await subscribe(`n${i}@example.com`)).status).toBe(202);
    const limited = await subscribe("one-more@example.com");
    expect([limited.status, limited.body.code]).toEqual([429, "TOO_MANY_REQUESTS"]);
    expect(limited.body.retryAfter).toBeGreaterThan(0);
  });

  test("without an SMTP channel no page offers subscriptions", async () => {
    const { call, subscribe } = await setup({ smtp: false });
    expect((await call<any>("GET", "/api/status/pages/default/subscriptions")).body.available).toBe(false);
    expect((await subscribe("x@example.com")).body.code).toBe("SUBSCRIPTIONS_UNAVAILABLE");
  });
});

describe("nobody learns whether an address is known", () => {
  test("new, pending and confirmed addresses get the same reply", async () => {
    const { call, subscribe, mails, skew } = await setup();
    const replies: unknown[] = [];
    const ask = async (email: string) => {
      const r = await subscribe(email);
      replies.push([r.status, r.body]);
    };
    await ask("new@example.com");
    const [mail] = await mails(1);
    await ask("new@example.com"); // pending, mailed a moment ago
    const confirmToken = linkToken(mail!, "http://localhost/status/confirm");
    expect((await call("POST", "/api/status/subscriptions/confirm", { body: { token: confirmToken } })).status).toBe(200);
    await ask("new@example.com"); // confirmed
    skew(RESEND_MS + 1_000);
    await ask("other@example.com"); // new again
    expect(replies).toHaveLength(4);
    for (const r of replies) expect(r).toEqual(replies[0]);
    expect(replies[0]).toEqual([202, { success: true, message: "Check your inbox: follow the link in the mail to confirm" }]);
  });

  test("the reply does not wait for the mail server; the confirmation mail follows", async () => {
    // A slow mail server: it takes 1.5 s to accept each message.
    const slow: SMTPServerOptions = {
      onRcptTo(_address, _session, done) {
        setTimeout(() => done(), 1_500);
      },
    };
    const { subscribe, mails, arrived } = await setup({ server: slow });
    const started = performance.now();
    const r = await subscribe("slow@example.com");
    expect(r.status).toBe(202);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(arrived).toHaveLength(0);
    const [mail] = await mails(1);
    expect(arrived[0]!.to).toEqual(["slow@example.com"]);
    expect(mail!.subject).toBe("Confirm your subscription to Acme status");
  });

  test("a confirmation the mail server turns away is kept and sent later, across a restart", async () => {
    let down = true;
    let tries = 0;
    const flaky: SMTPServerOptions = {
      onRcptTo(_address, _session, done) {
        tries++;
        done(down ? Object.assign(new Error("Try again later"), { responseCode: 451 }) : undefined);
      },
    };
    const { call, token, subscribe, mails, arrived, services, skew } = await setup({ server: flaky });
    // The same reply while the mail cannot go out (no 502 that would tell a new address from a known one).
    const r = await subscribe("patient@example.com");
    expect(r.status).toBe(202);
    await services.subscribers.idle();
    expect([tries, arrived.length]).toEqual([1, 0]);

    // The server is back; the node restarts after the first retry is due: the mail goes out then, once.
    down = false;
    await services.subscribers.stop();
    skew(RETRY_MS[0]! + 1_000);
    services.subscribers.start();
    const [mail] = await mails(1);
    expect(tries).toBe(2);
    expect(arrived.map((a) => a.to)).toEqual([["patient@example.com"]]);
    const confirmed = await call("POST", "/api/status/subscriptions/confirm", { body: { token: linkToken(mail!, "http://localhost/status/confirm") } });
    expect(confirmed.status).toBe(200);
    expect((await call<any>("GET", "/api/status-pages/1/subscribers", { token })).body.confirmed).toBe(1);
    await Bun.sleep(200);
    expect(arrived).toHaveLength(1);
  });
});

describe("the admin's list", () => {
  test("admins see addresses and remove them; nobody else sees an address anywhere", async () => {
    const { call, token, subscribe, mails, signUp } = await setup();
    await subscribe("pending@example.com");
    await subscribe("reader@example.com");
    const sent = await mails(2);
    const toReader = sent.find((m) => (m.to as { text: string }).text.includes("reader"))!;
    await call("POST", "/api/status/subscriptions/confirm", { body: { token: linkToken(toReader, "http://localhost/status/confirm") } });

    const list = await call<any>("GET", "/api/status-pages/1/subscribers", { token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ confirmed: 1, pending: 1 });
    expect(list.body.subscribers.map((s: any) => [s.email, s.confirmed])).toEqual([
      ["reader@example.com", true],
      ["pending@example.com", false],
    ]);

    const bob = await signUp("bob");
    expect((await call("GET", "/api/status-pages/1/subscribers", { token: bob.token })).status).toBe(403);
    expect((await call("GET", "/api/status-pages/1/subscribers")).status).toBe(401);
    expect((await call("DELETE", `/api/status-pages/1/subscribers/${list.body.subscribers[0].id}`, { token: bob.token })).status).toBe(403);
    expect((await call("GET", "/api/status-pages/99/subscribers", { token })).status).toBe(404);
    expect((await call("GET", "/api/status-pages/x/subscribers", { token })).status).toBe(400);
    for (const path of ["/api/status", "/api/status/pages/default", "/api/status/pages/default/feed.atom", "/api/status/pages/default/summary.json", "/api/status/pages/default/subscriptions"]) {
      const r = await call("GET", path);
      expect(JSON.stringify(r.body)).not.toContain("@example.com");
    }
    for (const path of ["/api/status-pages", "/api/status-pages/1", "/api/status/config"]) {
      expect(JSON.stringify((await call("GET", path, { token: bob.token })).body)).not.toContain("@example.com");
    }

    expect((await call("DELETE", `/api/status-pages/1/subscribers/${list.body.subscribers[0].id}`, { token })).status).toBe(200);
    expect((await call("DELETE", `/api/status-pages/1/subscribers/${list.body.subscribers[0].id}`, { token })).status).toBe(404);
    expect((await call<any>("GET", "/api/status-pages/1/subscribers", { token })).body.subscribers.map((s: any) => s.email)).toEqual(["pending@example.com"]);
  });
});

describe("a mailed link asks before it acts (mail scanners open links)", () => {
  /** A confirmed subscriber with one incident mail: its unsubscribe token and the mail's head. */
  async function subscribed() {
    const s = await setup();
    await s.subscribe("visitor@example.com");
    const [confirmation] = await s.mails(1);
    const confirmToken = linkToken(confirmation!, "http://localhost/status/confirm")!;
    // Opening the confirmation link tells what it is for and confirms nothing.
    const opened = await s.call<any>("GET", `/api/status/subscriptions/confirm?token=${confirmToken}`);
    expect([opened.status, opened.body.page, opened.body.email]).toEqual([200, { title: "Acme status", slug: "default", path: "/status" }, "v•••@example.com"]);
    expect((await s.call<any>("GET", "/api/status-pages/1/subscribers", { token: s.token })).body).toMatchObject({ confirmed: 0, pending: 1 });
    expect((await s.call("POST", "/api/status/subscriptions/confirm", { body: { token: confirmToken } })).status).toBe(200);
    await s.call("POST", "/api/incidents", { token: s.token, body: { title: "Outage", impact: "major", pageIds: [1], update: { state: "investigating", message: "x" } } });
    const [, notice] = await s.mails(2);
    const head = s.arrived[1]!.raw.split("\r\n\r\n")[0]!.replace(/\r\n\s+/g, " ");
    const confirmed = async () => (await s.call<any>("GET", "/api/status-pages/1/subscribers", { token: s.token })).body.confirmed;
    return { ...s, notice: notice!, head, unsubscribe: linkToken(notice!, "http://localhost/status/unsubscribe")!, confirmed };
  }

  test("GET of a confirm or unsubscribe link changes nothing; the page's POST does; bad tokens", async () => {
    const { call, unsubscribe, confirmed } = await subscribed();
    expect((await call("GET", "/api/status/subscriptions/confirm?token=nope")).body.code).toBe("SUBSCRIPTION_LINK_INVALID");

    for (let i = 0; i < 3; i++) {
      const opened = await call<any>("GET", `/api/status/subscriptions/unsubscribe?token=${unsubscribe}`);
      expect([opened.status, opened.body.page.title, opened.body.email]).toEqual([200, "Acme status", "v•••@example.com"]);
    }
    // The List-Unsubscribe URL opened in a browser: sent to the page that asks, nothing changed.
    const browsed = await call("GET", `/api/status/subscriptions/unsubscribe?token=${unsubscribe}`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect([browsed.status, browsed.headers.get("location")]).toEqual([303, `/status/unsubscribe?token=${unsubscribe}`]);
    expect(await confirmed()).toBe(1);

    const bad = await call("GET", "/api/status/subscriptions/unsubscribe?token=nope");
    expect([bad.status, bad.body.success, bad.body.code]).toEqual([404, false, "SUBSCRIPTION_NOT_FOUND"]);
    expect((await call("GET", "/api/status/subscriptions/unsubscribe")).status).toBe(400);
    expect((await call("GET", `/api/status/subscriptions/unsubscribe?token=${"x".repeat(101)}`)).status).toBe(400);
    expect((await call("POST", "/api/status/subscriptions/unsubscribe", { body: { token: "nope" } })).status).toBe(404);

    expect((await call("POST", "/api/status/subscriptions/unsubscribe", { body: { token: unsubscribe } })).status).toBe(200);
    expect(await confirmed()).toBe(0);
    expect((await call("GET", `/api/status/subscriptions/unsubscribe?token=${unsubscribe}`)).status).toBe(404);
  });

  test("RFC 8058 one-click: the List-Unsubscribe URL takes exactly the form POST, without a session", async () => {
    const { call, head, unsubscribe, confirmed } = await subscribed();
    expect(head).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const url = /List-Unsubscribe: <(http[^>]+)>/.exec(head)![1]!;
    expect(url).toBe(`http://localhost/api/status/subscriptions/unsubscribe?token=${unsubscribe}`);
    const path = url.slice("http://localhost".length);
    const post = (raw: string, type = "application/x-www-form-urlencoded", to = path) => call<any>("POST", to, { raw, headers: { "content-type": type } });

    expect((await post("List-Unsubscribe=One-Click", "text/plain")).status).toBe(415);
    expect((await post("List-Unsubscribe=Other")).body.code).toBe("ONE_CLICK_REQUIRED");
    expect((await post("")).status).toBe(400);
    expect((await post(`List-Unsubscribe=One-Click&pad=${"x".repeat(1024 * 1024)}`)).status).toBe(413);
    expect((await post("List-Unsubscribe=One-Click", undefined, "/api/status/subscriptions/unsubscribe?token=nope")).status).toBe(404);
    expect(await confirmed()).toBe(1);

    const done = await post("List-Unsubscribe=One-Click", "application/x-www-form-urlencoded; charset=utf-8");
    expect([done.status, done.body.success]).toEqual([200, true]);
    expect(await confirmed()).toBe(0);
  });
});
