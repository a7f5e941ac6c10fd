import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, tr } from "./i18n";

// The nodes view in both languages: on the embedded SQLite database Vigil is one node, checking every monitor; the
// page says so and shows it with its share, heartbeat and version. (Several nodes on PostgreSQL are covered by the
// API and failover tests: the browser tests run on SQLite.)

for (const [locale, m] of LANGUAGES) {
  test.describe(`nodes (${locale})`, () => {
    test.use({ locale });

    test("the user menu opens /nodes: one live standalone node checking every monitor, on a phone too", async ({ page, vigil }) => {
      const alice = await vigil.register("alice");
      await withSession(page, alice, "/dashboard");
      await page.getByTestId("user-menu-button").click();
      await expect(page.getByTestId("nav-nodes")).toHaveText(tr(m, "nav.nodes"));
      await page.getByTestId("nav-nodes").click();
      await expect(page).toHaveURL(/\/nodes$/);
      await expect(page.getByRole("heading", { name: tr(m, "nodes.title") })).toBeVisible();
      await expect(page.getByTestId("nodes-summary")).toHaveText(tr(m, "nodes.standalone"));

      const { body } = await vigil.api("GET", "/api/cluster/nodes", undefined, alice.token);
      const self = body.nodes[0];
      const row = page.getByTestId(`node-row-${self.name}`);
      await expect(row.getByTestId("node-self")).toHaveText(tr(m, "nodes.thisNode"));
      await expect(row.getByTestId("node-role")).toHaveText(tr(m, "nodes.roles.standalone"));
      await expect(row).toContainText(tr(m, "nodes.live"));
      await expect(row.getByTestId("node-leases")).toHaveText(tr(m, "nodes.share", { leases: 256, buckets: 256, percent: 100 }));
      await expect(page.getByTestId("nodes-table").locator("tbody tr")).toHaveCount(1);

      await page.setViewportSize({ width: 390, height: 800 });
      await expect(row.getByTestId("node-leases")).toBeVisible();
      // Polled: on a loaded machine the page may not have laid itself out again for the new width yet.
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}

test("/nodes needs a session", async ({ page, vigil }) => {
  await page.goto(`${vigil.url}/nodes`);
  await expect(page).toHaveURL(/\/login/);
});
