import { expect, withSession } from "./fixtures";
import { formOf, test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// Configuration as code in the UI, in both languages: a file applied through the API marks its monitor in the list, on
// its page and on its edit form (with the warning that the next apply undoes edits), its channel, its maintenance
// window and the default status page (list and editor); an edit made in the UI turns the monitor "drifted"
// (GET /api/config/managed), which its page then says.

const FILE = `version: 1
channels:
  - key: ops
    name: Ops hook
    type: webhook
    config:
      url: https://hooks.example.com/vigil
monitors:
  - key: shop
    name: Shop
    url: http://127.0.0.1:9/
    active: false
    notify:
      channels: [ops]
statusPages:
  - slug: default
    title: Shop status
    groups:
      - monitors: [shop]
maintenance:
  - key: nightly
    title: Nightly backup
    monitors: [shop]
    schedule: { kind: daily, time: "02:00", durationMinutes: 30 }
`;

for (const [locale, m] of LANGUAGES) {
  test.describe(`configuration file marks (${locale})`, () => {
    test.use({ locale });

    test("managed objects are marked; the edit form warns; an edit here shows as drift", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const applied = await vigil.api("POST", "/api/config/apply", { yaml: FILE }, admin.token);
      expect(applied.status).toBe(200);
      const managed = async () => (await vigil.api("GET", "/api/config/managed", undefined, admin.token)).body.managed as { kind: string; key: string; objectId: string; drifted: boolean }[];
      const find = async (key: string) => (await managed()).find((x) => x.key === key)!;
      const shop = Number((await find("shop")).objectId);
      const channel = Number((await find("ops")).objectId);
      const window = Number((await find("nightly")).objectId);
      const badge = tr(m, "configFile.badge");

      // The list, then the monitor's page.
      await withSession(page, admin, "/monitors");
      await expect(page.getByTestId(`monitor-managed-${shop}`)).toContainText(badge);
      await expect(page.getByTestId(`monitor-managed-${shop}`)).toHaveAttribute("data-key", "shop");
      await page.getByTestId(`monitor-link-${shop}`).click();
      await expect(page.getByTestId("monitor-managed")).toContainText(badge);
      await expect(page.getByTestId("monitor-managed-drifted")).toHaveCount(0);

      // The edit form says what the next apply does; an edit is saved all the same.
      await page.goto(`/monitors/edit/${shop}`);
      await expect(page.getByTestId("managed-warning")).toHaveText(tr(m, "configFile.warning.monitor", { key: "shop" }));
      await expect(page.getByTestId("managed-warning-drifted")).toHaveCount(0);
      const form = formOf(page, m);
      await form.field("name").fill("Shop (edited here)");
      await form.submit();
      await expect(page).toHaveURL(new RegExp(`/monitors/${shop}$`));
      await expect.poll(async () => (await find("shop")).drifted).toBe(true);
      await expect(page.getByTestId("monitor-managed-drifted")).toHaveText(tr(m, "configFile.drifted"));
      await page.goto(`/monitors/edit/${shop}`);
      await expect(page.getByTestId("managed-warning-drifted")).toHaveText(tr(m, "configFile.drifted"));

      // The channel and the maintenance window are marked too; the window's editor warns.
      await page.goto("/notifications");
      await expect(page.getByTestId(`channel-managed-${channel}`)).toContainText(badge);
      await page.goto("/maintenance");
      await expect(page.getByTestId(`maintenance-managed-${window}`)).toContainText(badge);
      await page.goto(`/maintenance/edit/${window}`);
      await expect(page.getByTestId("managed-warning")).toHaveText(tr(m, "configFile.warning.maintenance", { key: "nightly" }));

      // The default status page: marked in the list, and its editor (/status/config) warns.
      const statusPage = Number((await managed()).find((x) => x.kind === "status_page")!.objectId);
      await page.goto("/status-pages");
      await expect(page.getByTestId(`status-page-managed-${statusPage}`)).toContainText(badge);
      await page.goto("/status/config");
      await expect(page.getByTestId("managed-warning")).toHaveText(tr(m, "configFile.warning.statusPage", { key: "default" }));

      // Applying the file again puts the file's version back: no longer drifted.
      expect((await vigil.api("POST", "/api/config/apply", { yaml: FILE }, admin.token)).body.written).toBe(true);
      await page.goto(`/monitors/${shop}`);
      await expect(page.getByTestId("monitor-name")).toHaveText("Shop");
      await expect(page.getByTestId("monitor-managed")).toContainText(badge);
      await expect(page.getByTestId("monitor-managed-drifted")).toHaveCount(0);
    });
  });
}
