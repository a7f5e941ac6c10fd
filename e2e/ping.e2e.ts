import { expect, test, withSession } from "./fixtures";
import { formOf } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// The ping monitor in the browser, both languages: chosen in the form, its fields checked, how this server pings
// said (or that it cannot), created against 127.0.0.1, its figures on the detail page after a check; and the type
// chooser on a phone.

for (const [locale, m] of LANGUAGES) {
  test.describe(`ping monitors (${locale})`, () => {
    test.use({ locale });

    test("chosen, checked, created against 127.0.0.1; round trips and loss on its page", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      const { method } = (await vigil.api("GET", "/api/monitors/ping-support", undefined, session.token)).body as { method: "socket" | "program" | null };
      await withSession(page, session, "/monitors/create");
      const { field, radio, error, submit } = formOf(page, m);
      await radio("ping").check();
      await expect(page.getByTestId("monitor-target-ping")).toContainText(tr(m, "monitors.form.targetPing"));
      if (method) await expect(page.getByTestId("monitor-ping-method")).toHaveText(tr(m, `monitors.form.pingMethod.${method}`));
      else await expect(page.getByTestId("monitor-ping-unavailable")).toHaveText(tr(m, "monitors.form.pingUnavailable"));
      await expect(field("pingCount")).toHaveValue("3");
      await expect(field("pingLossThreshold")).toHaveValue("100");
      await expect(field("url")).toHaveCount(0);

      await field("name").fill("Gateway");
      await field("pingCount").fill("11");
      await field("pingLossThreshold").fill("0");
      await submit();
      await expect(error("host")).toHaveText(tr(m, "monitors.validation.hostRequired"));
      await expect(error("pingCount")).toHaveText(tr(m, "monitors.validation.pingCountInvalid"));
      await expect(error("pingLossThreshold")).toHaveText(tr(m, "monitors.validation.pingLossInvalid"));
      await field("host").fill("127.0.0.1");
      await field("pingCount").fill("2");
      await field("pingLossThreshold").fill("50");
      await field("pingFamily").selectOption("ipv4");
      await submit();
      await expect(toast(page, tr(m, "monitors.created"))).toBeVisible();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);

      await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "ping");
      await expect(page.getByTestId("monitor-target")).toHaveText("127.0.0.1");
      await expect(page.getByTestId("monitor-info-ping-packets")).toContainText(tr(m, "monitors.detail.info.pingPacketsValue", { count: 2, family: "IPv4" }));
      await expect(page.getByTestId("monitor-info-ping-verdict")).toContainText(tr(m, "monitors.detail.info.pingVerdictValue", { loss: 50 }));
      if (!method) return;
      await page.getByTestId("monitor-check-button").click();
      await expect(page.getByTestId("monitor-check-result")).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("monitor-check-result-time")).toContainText(tr(m, "monitors.detail.info.pingLoss", { loss: 0, received: 2, sent: 2 }));
      const latest = page.getByTestId("monitor-info-ping-latest");
      await expect(latest).toContainText(tr(m, "monitors.detail.info.pingLoss", { loss: 0, received: 2, sent: 2 }));
      await expect(latest).toContainText(/\d+\.\d\d ms/);
    });

    test("the five types fit a phone's form", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, session, "/monitors/create");
      const chooser = page.getByTestId("monitor-type-chooser");
      for (const type of ["http", "tcp", "dns", "push", "ping"]) await expect(page.getByTestId(`monitor-type-option-${type}`)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await formOf(page, m).radio("ping").check();
      await expect(chooser.getByTestId("monitor-type-option-ping")).toHaveAttribute("data-checked", "true");
      await expect(page.getByTestId("monitor-target-ping")).toBeVisible();
    });
  });
}
