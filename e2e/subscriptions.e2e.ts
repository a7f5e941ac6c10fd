import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { expect, test as base, withSession } from "./fixtures";
import { LANGUAGES, tr, toast } from "./i18n";

// Status-page subscriptions in the browser, both languages: a visitor subscribes on the public page, confirms by the
// mailed link, gets an incident mail, unsubscribes by its link (each link's page asks before it acts: opening a link
// changes nothing); the admin sees and removes subscribers.

interface Mailbox {
  port: number;
  /** Waits until n mails arrived; all of them, parsed, oldest first. */
  mails(n: number): Promise<ParsedMail[]>;
}

const test = base.extend<{ mailbox: Mailbox }>({
  mailbox: async ({}, use) => {
    const raw: string[] = [];
    const server = new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          raw.push(Buffer.concat(chunks).toString("utf8"));
          done();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.server.address() as AddressInfo).port;
    await use({
      port,
      async mails(n) {
        await expect.poll(() => raw.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(n);
        return Promise.all(raw.map((m) => simpleParser(m)));
      },
    });
    await new Promise<void>((r) => server.close(() => r()));
  },
});

const link = (mail: ParsedMail, path: string) => new RegExp(`https?://[^\\s]+${path}\\?token=[\\w-]+`).exec(mail.text ?? "")?.[0] ?? "";

for (const [locale, m] of LANGUAGES) {
  test.describe(`status-page subscriptions (${locale})`, () => {
    test.use({ locale });

    test("subscribe on the page, confirm by mail, get an incident, unsubscribe by its link; the admin's list", async ({ page, browser, vigil, mailbox }) => {
      test.slow(); // two browsers, four mails and a dozen pages: more than 30 s on a busy two-core machine
      const admin = await vigil.register("alice");
      await vigil.api("PUT", "/api/notifications/settings", { ...(await vigil.api("GET", "/api/notifications/settings", undefined, admin.token)).body.settings, language: locale }, admin.token);
      await vigil.api("PUT", "/api/status/config", { title: "Acme", description: "", monitorIds: [], agentIds: [], announcement: null }, admin.token);
      await vigil.api("POST", "/api/notifications/channels", { name: "Mail", type: "smtp", config: { host: "127.0.0.1", port: mailbox.port, security: "none", from: "status@acme.test", to: "ops@acme.test" } }, admin.token);

      const visitor = await (await browser.newContext({ baseURL: vigil.url, locale })).newPage();
      await visitor.goto("/status");
      const form = visitor.getByTestId("status-subscribe");
      await expect(form).toContainText(tr(m, "statusPage.subscribe.title"));
      await visitor.getByTestId("status-subscribe-email").fill("not an address");
      await visitor.getByTestId("status-subscribe-submit").click();
      await expect(visitor.getByTestId("status-subscribe-error")).toHaveText(tr(m, "statusPage.subscribe.invalid"));
      await visitor.getByTestId("status-subscribe-email").fill("visitor@example.com");
      await visitor.getByTestId("status-subscribe-submit").click();
      await expect(visitor.getByTestId("status-subscribe-done")).toHaveText(tr(m, "statusPage.subscribe.done", { email: "visitor@example.com" }));

      const [confirmation] = await mailbox.mails(1);
      const confirmLink = link(confirmation!, "/status/confirm");
      expect(confirmLink.startsWith(vigil.url)).toBe(true);
      // Opening the link (as a mail scanner would) confirms nothing: the page asks, and its button confirms.
      await visitor.goto(confirmLink);
      await expect(visitor.getByTestId("subscription-ask")).toContainText(tr(m, "statusPage.subscription.confirm.ask", { page: "Acme" }));
      await expect(visitor.getByTestId("subscription-ask")).toContainText(tr(m, "statusPage.subscription.address", { email: "v•••@example.com" }));
      expect((await vigil.api("GET", "/api/status-pages/1/subscribers", undefined, admin.token)).body.pending).toBe(1);
      await visitor.getByTestId("subscription-submit").click();
      await expect(visitor.getByTestId("subscription-result")).toHaveAttribute("data-state", "ok");
      await expect(visitor.getByTestId("subscription-result")).toContainText(tr(m, "statusPage.subscription.confirm.done", { page: "Acme" }));
      await visitor.getByTestId("subscription-page-link").click();
      await expect(visitor.getByTestId("status-title")).toHaveText("Acme");

      // The admin sees the address (nobody else does) on the default page's settings.
      await withSession(page, admin, "/status/config");
      await expect(page.getByTestId("subscribers-count")).toHaveText(tr(m, "statusPages.subscribers.count", { confirmed: 1, pending: 0 }));
      await expect(page.getByTestId("subscriber-row")).toContainText("visitor@example.com");
      expect(await visitor.content()).not.toContain("visitor@example.com");

      await vigil.api("POST", "/api/incidents", { title: "Payments failing", impact: "major", pageIds: [1], update: { state: "investigating", message: "Looking into it." } }, admin.token);
      const [, notice] = await mailbox.mails(2);
      expect(notice!.subject).toContain("Payments failing");
      expect(notice!.text).toContain("Looking into it.");
      const unsubscribeLink = link(notice!, "/status/unsubscribe");
      await visitor.goto(unsubscribeLink);
      await expect(visitor.getByTestId("subscription-ask")).toContainText(tr(m, "statusPage.subscription.unsubscribe.ask", { page: "Acme" }));
      await expect(visitor.getByTestId("subscription-submit")).toHaveText(tr(m, "statusPage.subscription.unsubscribe.button"));
      await visitor.reload(); // opened twice, still subscribed
      await expect(visitor.getByTestId("subscription-ask")).toBeVisible();
      expect((await vigil.api("GET", "/api/status-pages/1/subscribers", undefined, admin.token)).body.confirmed).toBe(1);
      await visitor.getByTestId("subscription-submit").click();
      await expect(visitor.getByTestId("subscription-result")).toHaveAttribute("data-state", "ok");
      await expect(visitor.getByTestId("subscription-result")).toContainText(tr(m, "statusPage.subscription.unsubscribe.done", { page: "Acme" }));
      expect((await vigil.api("GET", "/api/status-pages/1/subscribers", undefined, admin.token)).body.confirmed).toBe(0);
      await visitor.goto(unsubscribeLink);
      await expect(visitor.getByTestId("subscription-result")).toHaveAttribute("data-state", "invalid");
      await expect(visitor.getByTestId("subscription-result")).toContainText(tr(m, "statusPage.subscription.unsubscribe.invalid"));
      await visitor.goto(confirmLink);
      await expect(visitor.getByTestId("subscription-result")).toContainText(tr(m, "statusPage.subscription.confirm.invalid"));

      // A pending one, removed by the admin.
      await vigil.api("POST", "/api/status/pages/default/subscribe", { email: "later@example.com" });
      await page.reload();
      await expect(page.getByTestId("subscribers-count")).toHaveText(tr(m, "statusPages.subscribers.count", { confirmed: 0, pending: 1 }));
      await expect(page.getByTestId("subscriber-row")).toHaveAttribute("data-confirmed", "false");
      await page.getByTestId("subscriber-remove").click();
      await expect(toast(page, tr(m, "statusPages.subscribers.removed"))).toBeVisible();
      await expect(page.getByTestId("subscribers-empty")).toHaveText(tr(m, "statusPages.subscribers.none"));

      // On a phone the form fits.
      await visitor.setViewportSize({ width: 390, height: 800 });
      await visitor.goto("/status");
      await expect(visitor.getByTestId("status-subscribe-email")).toBeVisible();
      await expect.poll(() => visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await visitor.context().close();
    });

    test("without an SMTP channel the page offers no subscription", async ({ page, vigil }) => {
      await vigil.register("alice");
      await page.goto("/status");
      await expect(page.getByTestId("status-updated")).toBeVisible();
      await expect(page.getByTestId("status-subscribe")).toHaveCount(0);
    });
  });
}
