// The later check types in the monitor form, in both languages: every type offered with its name and what it does;
// a type's fields built from its settings schema (labels in the reader's language, required fields, number ranges);
// a secret shown as kept on edit and kept when the form is saved unchanged; and a manual monitor set down with a
// note and up again from its page.
import { expect, withSession } from "./fixtures";
import { formOf, test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

const LATER_TYPES = ["postgres", "mysql", "redis", "mongodb", "grpc", "websocket", "mqtt", "smtp", "imap", "pop3", "snmp", "ntp", "docker", "browser", "manual"];

for (const [locale, m] of LANGUAGES) {
  test.describe(`later check types (${locale})`, () => {
    test.use({ locale });

    test("postgres: its fields from the schema, checked before sending, the password kept on edit", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      await withSession(page, session, "/monitors/create");
      const { field, radio, error, submit } = formOf(page, m);
      for (const type of LATER_TYPES) {
        await expect(page.getByTestId(`monitor-type-option-${type}`)).toContainText(tr(m, `monitors.form.typeHints.${type}`));
      }
      await radio("postgres").check();
      const settings = page.getByTestId("monitor-settings-postgres");
      for (const key of ["host", "port", "database", "username", "password", "tls", "query", "expected"]) {
        await expect(settings.locator("label", { hasText: tr(m, `monitors.settingsTypes.postgres.fields.${key}.label`) }).first()).toBeVisible();
      }
      await expect(field("settings.port")).toHaveValue("5432");
      await expect(field("settings.query")).toHaveValue("SELECT 1");

      await field("name").fill("Orders DB");
      await field("settings.port").fill("70000");
      await submit();
      await expect(error("settings.host")).toHaveText(tr(m, "monitors.settingsForm.required"));
      await expect(error("settings.port")).toHaveText(tr(m, "monitors.settingsForm.numberInvalid"));

      await field("settings.host").fill("127.0.0.1");
      await field("settings.port").fill("5432");
      await field("settings.username").fill("vigil");
      await field("settings.password").fill("s3cret-password");
      await field("settings.expected").fill("1");
      await submit();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);
      const id = Number(page.url().split("/").pop());

      const saved = (await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor;
      expect(saved.type).toBe("postgres");
      expect(saved.settings).toMatchObject({ host: "127.0.0.1", port: 5432, username: "vigil", query: "SELECT 1", expected: "1" });
      expect(saved.settings.password).not.toBe("s3cret-password");
      expect(JSON.stringify(saved)).not.toContain("s3cret-password");

      // Edit: the password is shown as kept; saving without typing one keeps it (the mask goes back).
      await page.goto(`/monitors/edit/${id}`);
      await expect(field("settings.password")).toHaveValue("");
      await expect(field("settings.password")).toHaveAttribute("placeholder", tr(m, "monitors.settingsForm.secretKept"));
      await field("settings.query").fill("SELECT count(*) FROM orders");
      await submit();
      await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));
      const edited = (await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor;
      expect(edited.settings.query).toBe("SELECT count(*) FROM orders");
      expect(edited.settings.password).toBe(saved.settings.password);
    });

    test("manual: created with nothing to fill in, set down with a note and up again from its page", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      await withSession(page, session, "/monitors/create");
      const { field, radio, submit } = formOf(page, m);
      await radio("manual").check();
      await expect(page.getByTestId("monitor-settings-manual")).toContainText(tr(m, "monitors.form.typeHints.manual"));
      await field("name").fill("Office door");
      await submit();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);
      await expect(page.getByTestId("monitor-check-button")).toHaveCount(0);

      const card = page.getByTestId("monitor-manual");
      await expect(card).toContainText(tr(m, "monitors.detail.manual.title"));
      await page.getByTestId("monitor-manual-note").fill("closed for the holidays");
      await page.getByTestId("monitor-manual-down").click();
      await expect(toast(page, tr(m, "monitors.detail.manual.setDown"))).toBeVisible();
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId("monitor-last-error")).toHaveText(tr(m, "monitors.checkErrors.MANUAL_NOTE", { detail: "closed for the holidays" }));

      await page.getByTestId("monitor-manual-up").click();
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up");
    });
  });
}

test("a later type's form on a phone", async ({ page, vigil }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const session = await vigil.register("alice");
  await withSession(page, session, "/monitors/create");
  const [, m] = LANGUAGES[0];
  const { field, radio } = formOf(page, m);
  await radio("redis").check();
  await expect(field("settings.host")).toBeVisible();
  const box = await field("settings.host").boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
