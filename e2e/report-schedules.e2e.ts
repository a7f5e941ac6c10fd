import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { expect, withSession } from "./fixtures";
import { createMonitor, test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// The reports page's "Monthly mail" card in both languages: a schedule made from the report chosen in the form (its
// monitor and zone), listed, tried with Send now (the mail arrives at a real SMTP server, in the page's language),
// edited, and deleted after the confirmation.

/** The month before this one in Europe/Berlin ("2026-10"): what Send now mails. */
function lastMonthInBerlin() {
  const [year, month] = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit" }).format(new Date()).split("-").map(Number);
  return month === 1 ? `${year! - 1}-12` : `${year}-${String(month! - 1).padStart(2, "0")}`;
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`monthly report mail (${locale})`, () => {
    test.use({ locale });

    test("create from the report page, see it listed, send it now, change it, delete it", async ({ page, vigil, target }) => {
      const mails: { raw: string; to: string[] }[] = [];
      const server = new SMTPServer({
        disabledCommands: ["STARTTLS"],
        authOptional: true,
        logger: false,
        onData(stream, session, done) {
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            mails.push({ raw: Buffer.concat(chunks).toString("utf8"), to: session.envelope.rcptTo.map((r) => r.address) });
            done();
          });
        },
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      const port = (server.server.address() as AddressInfo).port;
      try {
        const admin = await vigil.register("alice");
        const id = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/shop"), interval: 1440 });
        const channel = await vigil.api("POST", "/api/notifications/channels", { name: "Company mail", type: "smtp", config: { host: "127.0.0.1", port, security: "none", from: "vigil@example.com", to: "alerts@example.com" } }, admin.token);
        expect(channel.status).toBe(201);
        await withSession(page, admin, `/reports?kind=monitor&ref=${id}&period=2026-10&zone=Europe/Berlin`);

        const card = page.getByTestId("report-schedules");
        await expect(card).toContainText(tr(m, "reports.schedules.title"));
        await expect(card.getByTestId("schedules-empty")).toHaveText(tr(m, "reports.schedules.none"));
        await card.getByTestId("schedule-new").click();
        const form = card.getByTestId("schedule-form");
        await expect(form).toContainText(tr(m, "reports.schedules.fromChoice", { kind: tr(m, "reports.kinds.monitor"), zone: "Europe/Berlin" }));
        await expect(form.getByTestId("schedule-language")).toHaveValue(locale);
        await expect(form.getByTestId("schedule-channel")).toHaveValue(String(channel.body.channel.id));
        await form.getByTestId("schedule-name").fill("SLA for the shop");
        await form.getByTestId("schedule-recipients").fill("cto@example.com, ops@example.com");
        await form.getByTestId("schedule-submit").click();
        await expect(toast(page, tr(m, "reports.schedules.created"))).toBeVisible();

        const row = card.getByTestId("schedule-row");
        await expect(row).toHaveCount(1);
        await expect(row).toContainText("SLA for the shop");
        await expect(row.getByTestId("schedule-target")).toContainText(`${tr(m, "reports.kinds.monitor")}: Shop`);
        await expect(row.getByTestId("schedule-zone")).toHaveText("Europe/Berlin");
        await expect(row.getByTestId("schedule-recipients-list")).toHaveText("cto@example.com, ops@example.com");
        await expect(row.getByTestId("schedule-state")).toHaveText(tr(m, "reports.schedules.notYet"));

        // Send now: last month's report, to the schedule's recipients (not the channel's), in the page's language.
        await row.getByTestId("schedule-send").click();
        await expect(toast(page, tr(m, "reports.schedules.sent", { period: lastMonthInBerlin() }))).toBeVisible();
        await expect.poll(() => mails.length).toBe(1);
        expect(mails[0]!.to.sort()).toEqual(["cto@example.com", "ops@example.com"]);
        const mail = await simpleParser(mails[0]!.raw);
        expect(mail.subject).toContain(locale === "zh-CN" ? "Vigil 报告：Shop" : "Vigil report: Shop");
        expect(mail.attachments.map((a) => a.filename?.endsWith(".csv"))).toEqual([true, true]);

        // Edit: fewer recipients, the other language, paused.
        await row.getByTestId("schedule-edit").click();
        await form.getByTestId("schedule-recipients").fill("cto@example.com");
        await form.getByTestId("schedule-language").selectOption(locale === "zh-CN" ? "en-US" : "zh-CN");
        await form.getByTestId("schedule-enabled").uncheck();
        await form.getByTestId("schedule-submit").click();
        await expect(toast(page, tr(m, "reports.schedules.saved"))).toBeVisible();
        await expect(row.getByTestId("schedule-recipients-list")).toHaveText("cto@example.com");
        await expect(row.getByTestId("schedule-state")).toHaveText(tr(m, "reports.schedules.paused"));

        // A bad address is refused with the server's reason.
        await row.getByTestId("schedule-edit").click();
        await form.getByTestId("schedule-recipients").fill("cto@example");
        await form.getByTestId("schedule-submit").click();
        await expect(form.getByTestId("form-error")).toContainText("cto@example");
        await form.getByTestId("schedule-cancel").click();

        await row.getByTestId("schedule-delete").click();
        await page.getByTestId("confirm-dialog-confirm").click();
        await expect(toast(page, tr(m, "reports.schedules.deleted"))).toBeVisible();
        await expect(card.getByTestId("schedules-empty")).toBeVisible();
        expect((await vigil.api("GET", "/api/report-schedules", undefined, admin.token)).body.schedules).toEqual([]);
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  });
}
