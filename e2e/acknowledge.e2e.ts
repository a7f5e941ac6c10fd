import type { Browser, Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { createMonitor, type Session } from "./helpers";
import { test, type Hook } from "./hook";
import { LANGUAGES, tr, type Messages } from "./i18n";

// Acknowledging an open problem, in both languages, on a desktop and on a 390 px phone: the server knows its public
// address (--public-url), so the alerts a local webhook receives carry signed links. An editor acknowledges one monitor
// from its page and sees it on the dashboard; the other is acknowledged through its alert's link, opened signed out,
// and the dashboard shows that too as it happens. A viewer sees the state without the button.

/** What the webhook got: each message's lines and its events' acknowledgement links. */
const messages = (hook: Hook) =>
  hook.received.filter((r) => r.path === "/ops").map((r) => JSON.parse(r.body) as { lines: string[]; events: { target: { name: string }; facts: { ackUrl?: string } }[] });

/** The link of `name`'s alert, once it has arrived; its message ends with the "Acknowledge" line in the instance's language. */
async function linkFor(hook: Hook, name: string, m: Messages): Promise<string> {
  await expect.poll(() => messages(hook).some((x) => x.events[0]!.target.name === name), { timeout: 15_000 }).toBe(true);
  const message = messages(hook).find((x) => x.events[0]!.target.name === name)!;
  const url = message.events[0]!.facts.ackUrl!;
  const label = m === LANGUAGES[0][1] ? "确认" : "Acknowledge";
  expect(message.lines.at(-1)).toBe(`${label}: ${url}`);
  return url;
}

/** A webhook channel for every alert, messages in the page's language. */
async function alertsTo(vigil: Vigil, admin: Session, hook: Hook, locale: string) {
  const channel = await vigil.api("POST", "/api/notifications/channels", { name: "Ops hook", type: "webhook", config: { url: hook.url("/ops") } }, admin.token);
  expect(channel.status).toBe(201);
  const everything = { enabled: true, channelIds: [channel.body.channel.id], reminderMinutes: 0, events: { down: true, recovery: true } };
  const agent = { ...everything, events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } };
  expect((await vigil.api("PUT", "/api/notifications/settings", { monitor: everything, agent, language: locale, timeZone: "UTC" }, admin.token)).status).toBe(200);
}

/** "Acknowledged by {{by}} at {{time}}" as a pattern: the time is the reader's clock. */
const acked = (m: Messages, key: string, values: Record<string, string>) =>
  new RegExp(tr(m, key, { ...values, time: "__TIME__" }).replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("__TIME__", ".+"));

async function noSidewaysScroll(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width!);
}

async function signedOutPage(browser: Browser, locale: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ locale, viewport });
  return { page: await context.newPage(), close: () => context.close() };
}

const VIEWPORTS = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;

for (const [locale, m] of LANGUAGES) {
  for (const [device, viewport] of VIEWPORTS) {
    test.describe(`acknowledging (${locale}, ${device})`, () => {
      test.use({ locale, viewport, publicUrl: true });

      test("from the monitor's page, seen on the dashboard; through the alert's link signed out, seen live", async ({ page, vigil, hook, target, browser }) => {
        const admin = await vigil.register("alice");
        await alertsTo(vigil, admin, hook, locale);
        const shop = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/fail/shop"), retries: 0 });
        await linkFor(hook, "Shop", m);
        await createMonitor(vigil, admin, { name: "Billing", url: target.url("/fail/billing"), retries: 0 });
        const billingLink = await linkFor(hook, "Billing", m);

        // The monitor's page: its open problem, acknowledged with one click.
        await withSession(page, admin, `/monitors/${shop}`);
        const panel = page.getByTestId("open-problems");
        await expect(panel.getByTestId("open-problem-condition")).toHaveText(tr(m, "problems.condition.down"));
        await panel.getByTestId("problem-ack-button").click();
        await expect(panel.getByTestId("problem-ack")).toHaveText(acked(m, "problems.ackedBy", { by: "alice" }));
        await expect(panel.getByTestId("problem-ack-button")).toHaveCount(0);
        if (device === "phone") await noSidewaysScroll(page);

        // The dashboard's list of what is down: Shop acknowledged, Billing with the button.
        await page.goto("/dashboard");
        const row = (name: string) => page.getByTestId("problem-monitor").filter({ hasText: name });
        await expect(row("Shop").getByTestId("problem-ack")).toHaveText(acked(m, "problems.ackedBy", { by: "alice" }));
        await expect(row("Billing").getByTestId("problem-ack-button")).toBeVisible();
        if (device === "phone") await noSidewaysScroll(page);

        // Billing's alert link, opened where nobody is signed in: it names the problem and acts on its button only.
        const stranger = await signedOutPage(browser, locale, viewport);
        try {
          await stranger.page.goto(billingLink);
          const ask = stranger.page.getByTestId("ack-link-ask");
          await expect(ask.getByTestId("ack-link-target")).toContainText("Billing");
          await expect(ask.getByTestId("ack-link-condition")).toHaveText(tr(m, "problems.condition.down"));
          await expect(ask.getByTestId("ack-link-channel")).toHaveText(tr(m, "problems.link.channel", { channel: "Ops hook" }));
          await expect(row("Billing").getByTestId("problem-ack-button")).toBeVisible(); // opening it changed nothing
          if (device === "phone") await noSidewaysScroll(stranger.page);
          await stranger.page.getByTestId("ack-link-submit").click();
          const result = stranger.page.getByTestId("ack-link-result");
          await expect(result).toHaveAttribute("data-state", "done");
          await expect(result.getByTestId("problem-ack")).toHaveText(acked(m, "problems.ackedViaLink", { channel: "Ops hook" }));

          // The dashboard heard it: no reload.
          await expect(row("Billing").getByTestId("problem-ack")).toHaveText(acked(m, "problems.ackedViaLink", { channel: "Ops hook" }));

          // The link again: acknowledged already, by whom.
          await stranger.page.reload();
          await expect(result).toHaveAttribute("data-state", "already");
          await expect(result).toContainText(tr(m, "problems.link.already"));
        } finally {
          await stranger.close();
        }
      });
    });
  }

  test.describe(`acknowledging as a viewer (${locale})`, () => {
    test.use({ locale });

    test("a viewer sees whether a problem is acknowledged, without the button", async ({ page, vigil, hook, target }) => {
      const admin = await vigil.register("alice");
      const viewer = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${viewer.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
      await alertsTo(vigil, admin, hook, locale);
      const shop = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/fail/shop"), retries: 0 });
      await expect.poll(async () => (await vigil.api("GET", "/api/problems", undefined, admin.token)).body.problems.length, { timeout: 15_000 }).toBe(1);

      await withSession(page, viewer, `/monitors/${shop}`);
      const panel = page.getByTestId("open-problems");
      await expect(panel.getByTestId("problem-ack")).toHaveText(tr(m, "problems.notAcked"));
      await expect(panel.getByTestId("problem-ack-button")).toHaveCount(0);
      // An editor acknowledges elsewhere: the viewer's page shows who, as it happens.
      expect((await vigil.api("POST", "/api/problems/ack", { targetType: "monitor", targetId: shop, condition: "down" }, admin.token)).status).toBe(200);
      await expect(panel.getByTestId("problem-ack")).toHaveText(acked(m, "problems.ackedBy", { by: "alice" }));
    });
  });
}
