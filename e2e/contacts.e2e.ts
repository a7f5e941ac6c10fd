import type { Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { test } from "./hook";
import { LANGUAGES, toast, tr } from "./i18n";

// Personal contact channels and quiet hours on /profile, both languages: a viewer adds a webhook channel of their own
// with quiet hours (weekdays only, down alerts held too) through the channel form, sends a test, renames it, sets
// their own quiet hours (a refused input shown at its field first), and deletes it through the dialog; the channel
// never shows in /notifications' team list. On a 390 px phone: a push channel of one's own (no people to choose: it
// reaches one's own devices) and the quiet hours fields fit the width.

/** An admin with a team channel, and a viewer signed in on /profile. */
async function viewerOnProfile(page: Page, vigil: Vigil, hookUrl: string) {
  const admin = await vigil.register("alice");
  expect((await vigil.api("POST", "/api/notifications/channels", { name: "Team hook", type: "webhook", config: { url: hookUrl } }, admin.token)).status).toBe(201);
  const vera = await vigil.register("vera");
  expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
  const session = (await vigil.api("POST", "/api/auth/login", { username: "vera", password: "correct horse" })).body;
  await withSession(page, session, "/profile");
  return { admin, vera: session as { token: string; user: { id: number } } };
}

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

for (const [locale, m] of LANGUAGES) {
  test.describe(`contact channels and quiet hours (${locale})`, () => {
    test.use({ locale });

    test("a viewer adds a channel of their own with quiet hours, tests, edits and deletes it, and sets their quiet hours; the team's list never shows it", async ({ page, vigil, hook }) => {
      test.slow(); // a whole round of a channel's life and the quiet hours: past 30 s beside npm test's other streams
      const { vera } = await viewerOnProfile(page, vigil, hook.url("/team"));
      const card = page.getByTestId("contacts-card");
      await expect(card.getByRole("heading")).toHaveText(tr(m, "contacts.title"));
      await expect(card.getByTestId("contacts-empty")).toHaveText(tr(m, "contacts.empty"));

      await card.getByTestId("contacts-add").click();
      const form = page.getByTestId("channel-form");
      await form.getByTestId("channel-field-name").fill("My hook");
      await form.getByTestId("channel-field-type").selectOption("webhook");
      await form.getByTestId("channel-field-url").fill(hook.url("/vera"));
      // Quiet hours are off until asked for.
      await expect(form.getByTestId("channel-quiet-from")).toHaveCount(0);
      await form.getByTestId("channel-quiet").check();
      await form.getByTestId("channel-quiet-from").fill("23:00");
      await form.getByTestId("channel-quiet-to").fill("06:30");
      await form.getByTestId("channel-quiet-zone").selectOption("UTC");
      await form.getByTestId("channel-quiet-day-6").click();
      await form.getByTestId("channel-quiet-day-7").click();
      await expect(form.getByTestId("channel-quiet-day-6")).toHaveAttribute("aria-pressed", "false");
      await form.getByTestId("channel-quiet-hold-down").check();
      await form.getByTestId("channel-save").click();
      await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();

      const mine = (await vigil.api("GET", "/api/me/channels", undefined, vera.token)).body.channels;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ name: "My hook", type: "webhook", quietHours: { from: "23:00", to: "06:30", timeZone: "UTC", days: [1, 2, 3, 4, 5], holdDown: true } });
      const row = card.getByTestId("contact-row");
      await expect(row.getByTestId("contact-name")).toHaveText("My hook");
      await expect(row.getByTestId("contact-quiet")).toContainText("23:00–06:30");
      await expect(row.getByTestId("contact-quiet")).toContainText(tr(m, "quietHours.holdsDown"));

      await row.getByTestId("contact-test").click();
      await expect(toast(page, tr(m, "contacts.testSent", { name: "My hook" }))).toBeVisible();
      await expect.poll(() => hook.received.filter((r) => r.path === "/vera").length).toBe(1);

      // Edited through the same form: its quiet hours come back as saved.
      await row.getByTestId("contact-edit").click();
      await expect(form.getByTestId("channel-quiet")).toBeChecked();
      await expect(form.getByTestId("channel-quiet-from")).toHaveValue("23:00");
      await form.getByTestId("channel-field-name").fill("Phone hook");
      await form.getByTestId("channel-save").click();
      await expect(toast(page, tr(m, "notifications.channelUpdated"))).toBeVisible();
      await expect(row.getByTestId("contact-name")).toHaveText("Phone hook");

      // My quiet hours: no day chosen is refused here, then saved.
      const quiet = page.getByTestId("my-quiet-card");
      await expect(quiet.getByRole("heading")).toHaveText(tr(m, "quietHours.mine.title"));
      await quiet.getByTestId("my-quiet").check();
      await quiet.getByTestId("my-quiet-from").fill("22:00");
      await quiet.getByTestId("my-quiet-to").fill("07:00");
      await quiet.getByTestId("my-quiet-zone").selectOption("Asia/Shanghai");
      for (let d = 1; d <= 7; d++) await quiet.getByTestId(`my-quiet-day-${d}`).click();
      await quiet.getByTestId("my-quiet-save").click();
      await expect(quiet.getByTestId("my-quiet-error-days")).toHaveText(tr(m, "quietHours.errors.days"));
      await quiet.getByTestId("my-quiet-day-1").click();
      await expect(quiet.getByTestId("my-quiet-error-days")).toHaveCount(0);
      await quiet.getByTestId("my-quiet-save").click();
      await expect(quiet.getByText(tr(m, "quietHours.mine.saved"))).toBeVisible();
      expect((await vigil.api("GET", "/api/me/quiet-hours", undefined, vera.token)).body.quietHours).toEqual({ from: "22:00", to: "07:00", timeZone: "Asia/Shanghai", days: [1], holdDown: false });
      await page.reload();
      await expect(page.getByTestId("my-quiet-from")).toHaveValue("22:00");

      // The team's list: the team's channel only.
      await page.goto("/notifications");
      await expect(page.getByTestId("channels-list").locator("[data-testid^=channel-name-]")).toHaveText(["Team hook"]);
      await expect(page.getByText("Phone hook")).toHaveCount(0);

      await page.goto("/profile");
      await page.getByTestId("contact-delete").click();
      await expect(page.getByTestId("confirm-dialog")).toContainText("Phone hook");
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "contacts.deleted"))).toBeVisible();
      await expect(page.getByTestId("contacts-empty")).toBeVisible();
    });

    test("on a 390 px phone: a push channel of one's own needs no people, and the quiet hours fit", async ({ page, vigil, hook }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const { vera } = await viewerOnProfile(page, vigil, hook.url("/team"));
      await page.getByTestId("contacts-add").click();
      const form = page.getByTestId("channel-form");
      await form.getByTestId("channel-field-name").fill("My phone");
      await form.getByTestId("channel-field-type").selectOption("webpush");
      await expect(form.getByTestId("channel-push-own")).toHaveText(tr(m, "contacts.pushOwn"));
      await expect(form.getByTestId("channel-field-userIds")).toHaveCount(0);
      await form.getByTestId("channel-quiet").check();
      await expect(form.getByTestId("channel-quiet-day-7")).toBeVisible();
      await fits(page);
      await form.getByTestId("channel-save").click();
      await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();
      const [made] = (await vigil.api("GET", "/api/me/channels", undefined, vera.token)).body.channels;
      expect(made).toMatchObject({ type: "webpush", config: { userIds: [vera.user.id] }, quietHours: { from: "22:00", to: "07:00" } });

      const row = page.getByTestId("contact-row");
      await expect(row.getByTestId("contact-name")).toHaveText("My phone");
      const box = (await row.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await page.getByTestId("my-quiet").check();
      await expect(page.getByTestId("my-quiet-hold-down")).toBeVisible();
      await fits(page);
      await page.getByTestId("my-quiet-save").click();
      await expect(page.getByText(tr(m, "quietHours.mine.saved"))).toBeVisible();
    });
  });
}

