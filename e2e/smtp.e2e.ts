import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { expect, withSession } from "./fixtures";
import { test } from "./helpers";
import { LANGUAGES, tr, toast } from "./i18n";

// The SMTP channel's form in both languages, against a real SMTP server on 127.0.0.1: its own fields (security as a
// choice, certificate checks as a switch), its checks, and a test mail that arrives with both parts and the login.

for (const [locale, m] of LANGUAGES) {
  test.describe(`SMTP channel (${locale})`, () => {
    test.use({ locale });

    test("the form's fields and checks; a test mail arrives through the server with its login", async ({ page, vigil }) => {
      const mails: { raw: string; user?: string }[] = [];
      const server = new SMTPServer({
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        logger: false,
        onAuth: (auth, _session, done) => (auth.username === "alerts" && auth.password === "mail-pass-1" ? done(null, { user: "alerts" }) : done(new Error("Invalid login"))),
        onData(stream, session, done) {
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            mails.push({ raw: Buffer.concat(chunks).toString("utf8"), user: session.user as string | undefined });
            done();
          });
        },
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      const port = (server.server.address() as AddressInfo).port;
      try {
        const admin = await vigil.register("alice");
        await withSession(page, admin, "/notifications");
        await page.getByTestId("channels-add").click();
        const form = page.getByTestId("channel-form");
        await form.getByTestId("channel-field-type").selectOption("smtp");
        for (const field of ["host", "security", "port", "username", "password", "from", "to", "ignoreTls"]) await expect(form.getByTestId(`channel-field-${field}`)).toBeVisible();
        await expect(form.getByTestId("channel-field-url")).toHaveCount(0);
        await page.getByTestId("channel-save").click();
        await expect(form.getByTestId("channel-error-host")).toHaveText(tr(m, "notifications.channelForm.fieldRequired"));
        await form.getByTestId("channel-field-port").fill("abc");
        await expect(form.getByTestId("channel-error-port")).toHaveText(tr(m, "notifications.channelForm.numberInvalid"));

        await form.getByTestId("channel-field-name").fill("Ops mail");
        await form.getByTestId("channel-field-host").fill("127.0.0.1");
        await form.getByTestId("channel-field-security").selectOption("none");
        await form.getByTestId("channel-field-port").fill(String(port));
        await form.getByTestId("channel-field-username").fill("alerts");
        await form.getByTestId("channel-field-password").fill("mail-pass-1");
        await form.getByTestId("channel-field-from").fill("Vigil <vigil@example.com>");
        await form.getByTestId("channel-field-to").fill("ops@example.com");
        await page.getByTestId("channel-save").click();
        await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();
        const [channel] = (await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels;
        expect(channel).toMatchObject({ type: "smtp", config: { host: "127.0.0.1", port, security: "none", username: "alerts", from: "Vigil <vigil@example.com>", to: ["ops@example.com"] } });
        expect(channel.config.password).not.toBe("mail-pass-1");

        await page.getByTestId(`channel-test-${channel.id}`).click();
        await expect(toast(page, tr(m, "notifications.channels.testSent", { name: "Ops mail" }))).toBeVisible();
        await expect.poll(() => mails.length).toBe(1);
        expect(mails[0].user).toBe("alerts");
        const mail = await simpleParser(mails[0].raw);
        expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("ops@example.com");
        expect(mail.text).toBeTruthy();
        expect(mail.html).toBeTruthy();
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  });
}
