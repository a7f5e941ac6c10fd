import { readFileSync } from "node:fs";
import { expect, withSession } from "./fixtures";
import { check, createMonitor, test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// A monitor's checks exported from its page: the days and the format chosen, the file downloaded holds the checks made
// (NDJSON parsed back, CSV with its header); a first day after the last is refused before anything is asked.

for (const [locale, m] of LANGUAGES) {
  test.describe(`export checks (${locale})`, () => {
    test.use({ locale });

    test("download this week's checks as NDJSON and as CSV; a reversed range is refused", async ({ page, vigil, target }, testInfo) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/shop"), interval: 1440 });
      target.set("/shop", 500);
      expect((await check(vigil, admin, id)).status).toBe(200);
      await withSession(page, admin, `/monitors/${id}`);

      const card = page.getByTestId("monitor-export");
      await expect(card).toContainText(tr(m, "monitors.detail.export.title"));
      await expect(card).toContainText(tr(m, "monitors.detail.export.retention"));
      const button = card.getByTestId("monitor-export-download");
      await expect(button).toHaveText(tr(m, "common.export.download"));

      await card.getByTestId("monitor-export-format").selectOption("ndjson");
      const [ndjson] = await Promise.all([page.waitForEvent("download"), button.click()]);
      expect(ndjson.suggestedFilename()).toMatch(new RegExp(`^vigil-monitor-${id}-checks-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.ndjson$`));
      await expect(toast(page, tr(m, "monitors.detail.export.downloaded"))).toBeVisible();
      const saved = testInfo.outputPath("checks.ndjson");
      await ndjson.saveAs(saved);
      const checks = readFileSync(saved, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
      expect(checks.map((c) => c.status)).toEqual(["up", "down"]);
      expect(checks[1]).toMatchObject({ httpStatus: 500, maintenance: false });

      await card.getByTestId("monitor-export-format").selectOption("csv");
      const [csv] = await Promise.all([page.waitForEvent("download"), button.click()]);
      expect(csv.suggestedFilename()).toMatch(/\.csv$/);
      await csv.saveAs(testInfo.outputPath("checks.csv"));
      const lines = readFileSync(testInfo.outputPath("checks.csv"), "utf8").trimEnd().split("\r\n");
      expect(lines[0]!.startsWith("time,status,response_time_ms,http_status,error,")).toBe(true);
      expect(lines.length).toBe(3);

      // The first day after the last: said under the field, the button off.
      await card.getByTestId("monitor-export-from").fill("2099-01-02");
      await card.getByTestId("monitor-export-to").fill("2099-01-01");
      await expect(card.getByTestId("monitor-export-range-error")).toHaveText(tr(m, "common.export.badRange"));
      await expect(button).toBeDisabled();
    });
  });
}
