// An admin brings an Uptime Kuma setup across from the browser: from the accounts page to /import/kuma, chooses the
// sample Kuma 2.5.3 kuma.db, reads the plan (to create, and what cannot come across and why), imports it and finds the
// monitors in the list. A file that is not Kuma's is refused in words. The plan's notes, setting names and source read
// in the page's language. Both languages, and at a phone's width.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, toast, tr } from "./i18n";

const FIXTURE = resolve("server/import/kuma/fixture");
const manifest = JSON.parse(readFileSync(resolve(FIXTURE, "manifest.json"), "utf8")) as { monitors: { name: string; type: string }[] };

for (const [locale, m] of LANGUAGES) {
  test.describe(`import from Uptime Kuma (${locale})`, () => {
    test.use({ locale });

    test("an admin reads the plan of a Kuma database, imports it and finds the monitors", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/users");
      await page.getByTestId("import-open").click();
      await expect(page).toHaveURL(/\/import\/kuma$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr(m, "import.title"));

      // Not a Kuma file: said in words, nothing planned.
      await page.getByTestId("import-file").setInputFiles({ name: "kuma.db", mimeType: "application/octet-stream", buffer: Buffer.from("not a database") });
      await page.getByTestId("import-plan-button").click();
      await expect(page.getByTestId("import-error")).toHaveText(tr(m, "errors.NOT_KUMA"));

      await page.getByTestId("import-file").setInputFiles(resolve(FIXTURE, "kuma.db"));
      await page.getByTestId("import-plan-button").click();
      const plan = page.getByTestId("import-plan");
      await expect(plan).toBeVisible();
      // A type Vigil lacks (SQL Server) is skipped; a database type it has (docker, postgres…) is created.
      const sqlserver = manifest.monitors.find((x) => x.type === "sqlserver")!.name;
      const skipped = plan.getByTestId("import-item").filter({ hasText: sqlserver });
      await expect(skipped).toHaveAttribute("data-action", "skip");
      // The plan reads in the page's language: why it is skipped, the setting's name, the file it comes from.
      await expect(skipped.locator('[data-code="monitor.noCheck"]')).toHaveText(tr(m, "import.notes.monitor.noCheck", { type: "sqlserver" }));
      if (locale === "zh-CN") await expect(skipped).not.toContainText("Vigil has no sqlserver check yet.");
      const docker = manifest.monitors.find((x) => x.type === "docker")!.name;
      await expect(plan.getByTestId("import-item").filter({ hasText: docker }).first()).toHaveAttribute("data-action", "create");
      const zone = plan.locator('[data-testid="import-item"]:has([data-code="setting.timeZone"])');
      await expect(zone).toContainText(tr(m, "import.names.timeZone"));
      await expect(zone).toContainText(tr(m, "import.notes.setting.timeZone", { zone: "Europe/Berlin" }));
      await expect(plan).toContainText(tr(m, "import.source.database2", { file: "kuma.db" }));
      const toCreate = await plan.locator('[data-testid="import-item"][data-action="create"]').count();
      expect(toCreate).toBeGreaterThan(10);

      await plan.getByTestId("import-apply").click();
      await expect(toast(page, tr(m, "import.applied"))).toBeVisible();
      await expect(page.getByTestId("import-done")).toContainText(tr(m, "import.doneTitle"));
      await page.getByTestId("import-to-monitors").click();
      const http = manifest.monitors.find((x) => x.type === "http")!.name;
      await page.getByTestId("monitors-search").fill(http);
      await expect(page.getByRole("link", { name: http, exact: true })).toBeVisible();
    });

    test("on a phone the plan reads in one column and the empty monitor list points at the import", async ({ page, vigil }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/monitors");
      await page.getByTestId("monitors-import-kuma").click();
      await expect(page).toHaveURL(/\/import\/kuma$/);
      await page.getByTestId("import-file").setInputFiles(resolve(FIXTURE, "kuma.db"));
      await page.getByTestId("import-plan-button").click();
      const plan = page.getByTestId("import-plan");
      await expect(plan).toBeVisible();
      // Nothing wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });
}
