import { expect, withSession } from "./fixtures";
import { createMonitor, test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// The dashboard on a 390 px phone: the counts sit in a compact grid (three monitor counts and two agent counts to a
// row), every count on the first screens instead of nine full-width cards, and nothing scrolls sideways.

for (const [locale, m] of LANGUAGES) {
  test.describe(`dashboard on a phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test("the counts are a compact grid: three or two to a row, all within the width", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      await createMonitor(vigil, admin, { name: "Phone web", url: target.url("/ok") });
      await withSession(page, admin, "/dashboard");
      await expect(page.getByTestId("dashboard-total")).toHaveText("1", { timeout: 15_000 });
      await expect(page.getByTestId("dashboard-up-tile")).toContainText(tr(m, "dashboard.up"));

      const rows = async (testId: string) => {
        const boxes = await page.getByTestId(testId).locator(":scope > a").evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((b) => [Math.round(b.top), b.left, b.right]));
        return { tops: [...new Set(boxes.map(([top]) => top))].length, perRow: boxes.filter(([top]) => top === boxes[0]![0]).length, right: Math.max(...boxes.map(([, , r]) => r!)) };
      };
      expect(await rows("dashboard-monitor-counts")).toMatchObject({ tops: 2, perRow: 3 });
      expect((await rows("dashboard-monitor-counts")).right).toBeLessThanOrEqual(390);
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
      // All five monitor counts fit in the first screen.
      for (const id of ["total", "active", "up", "down", "pending"]) await expect(page.getByTestId(`dashboard-${id}-tile`)).toBeInViewport({ ratio: 1 });
    });
  });
}
