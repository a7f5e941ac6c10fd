import { readFileSync } from "node:fs";
import { expect, withSession } from "./fixtures";
import { check, createMonitor, test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// A monitor's report, opened from its page: today's checks (the first passed, then one failed, then one passed) make one
// outage and two thirds availability, computed from every check; the monitors' CSV holds the same numbers; the form and the
// navigation stay off the printed page.

for (const [locale, m] of LANGUAGES) {
  test.describe(`reports (${locale})`, () => {
    test.use({ locale });

    test("today's report of a monitor: availability, the outage, CSV; printed without the app around it", async ({ page, vigil, target }, testInfo) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/shop"), interval: 1440 });
      target.set("/shop", 500);
      expect((await check(vigil, admin, id)).status).toBe(200);
      target.set("/shop", 200);
      expect((await check(vigil, admin, id)).status).toBe(200);
      await withSession(page, admin, `/monitors/${id}`);

      await page.getByTestId("monitor-report-link").click();
      await expect(page).toHaveURL(new RegExp(`/reports\\?kind=monitor&ref=${id}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr(m, "reports.title"));
      await expect(page.getByTestId("report-target")).toHaveValue(String(id));
      await page.getByTestId("report-period-kind").selectOption("range");
      const today = await page.evaluate(() => new Date().toLocaleDateString("sv-SE"));
      await page.getByTestId("report-from").fill(today);
      await page.getByTestId("report-to").fill(today);
      await page.getByTestId("report-show").click();

      const report = page.getByTestId("report");
      await expect(report.getByTestId("report-title")).toHaveText(`${tr(m, "reports.kinds.monitor")}: Shop`);
      // From every check, or — once the hourly rollup has run after start-up, which a busy machine may let happen
      // first — from today's finished hours plus this hour's checks: the counts below are the same either way.
      const granularity = (await report.getByTestId("report-granularity").textContent()) ?? "";
      expect([tr(m, "reports.fromChecks"), tr(m, "reports.fromRollups")].some((text) => granularity.includes(text))).toBe(true);
      await expect(report.getByTestId("report-summary-availability")).toHaveText("66.666 %");
      await expect(report.getByTestId("report-summary-outages")).toHaveText("1");
      await expect(report.getByTestId("report-outage")).toHaveCount(1);
      await expect(report.getByTestId(`report-monitor-${id}`)).toContainText("Shop");
      await expect(report.getByTestId("report-maintenance")).toContainText(tr(m, "reports.noMaintenance"));

      const [csv] = await Promise.all([page.waitForEvent("download"), report.getByTestId("report-csv").click()]);
      expect(csv.suggestedFilename()).toBe(`vigil-report-monitor-${id}-${today}..${today}-monitors.csv`);
      await csv.saveAs(testInfo.outputPath("report.csv"));
      const [header, row] = readFileSync(testInfo.outputPath("report.csv"), "utf8").trimEnd().split("\r\n");
      expect(header!.split(",").slice(0, 5)).toEqual(["monitor_id", "monitor", "type", "availability_percent", "checks"]);
      expect(row!.split(",").slice(0, 5)).toEqual([String(id), "Shop", "http", "66.666", "3"]);

      // On paper: the report, not the navigation or the form.
      await page.emulateMedia({ media: "print" });
      await expect(page.getByTestId("report-form")).toBeHidden();
      await expect(page.getByTestId("nav-link-reports")).toBeHidden();
      await expect(report.getByTestId("report-print")).toBeHidden();
      await expect(report.getByTestId("report-title")).toBeVisible();
    });
  });
}
