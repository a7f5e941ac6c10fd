import type { Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { createMonitor, test, type Session, type Target } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// Monitor groups in both languages: the list nests members under their group (collapsible, flat when searched), the
// form offers type Group and a Group select, a group's page lists its members with their states, and a status page
// shows a group as one row that opens to its members (at a phone's width too).

const rows = (page: Page) => page.locator("[data-testid^=monitor-row-]");

/** A group "Shop" with an up member "API" and a down member "Cart"; "Blog" on its own. */
async function shop(vigil: Vigil, session: Session, target: Target) {
  target.set("/cart", 500);
  const group = (await vigil.api("POST", "/api/monitors", { name: "Shop", type: "group" }, session.token)).body.monitor.id as number;
  const api = await createMonitor(vigil, session, { name: "API", url: target.url("/api"), parentId: group });
  const cart = await createMonitor(vigil, session, { name: "Cart", url: target.url("/cart"), retries: 0, parentId: group });
  const blog = await createMonitor(vigil, session, { name: "Blog", url: target.url("/blog") });
  await expect.poll(async () => (await vigil.api("GET", `/api/monitors/${group}`, undefined, session.token)).body.monitor.status).toBe("down");
  return { group, api, cart, blog };
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`monitor groups (${locale})`, () => {
    test.use({ locale });

    test("the list nests members under their group and folds them; search lists matches flat; the group's page lists its members", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const ids = await shop(vigil, session, target);
      await withSession(page, session, "/monitors");
      await expect(rows(page)).toHaveCount(4);
      const depth = (id: number) => page.getByTestId(`monitor-row-${id}`).locator("[data-depth]");
      await expect(depth(ids.group)).toHaveAttribute("data-depth", "0");
      await expect(depth(ids.api)).toHaveAttribute("data-depth", "1");
      await expect(depth(ids.cart)).toHaveAttribute("data-depth", "1");
      await expect(page.getByTestId(`monitor-status-${ids.group}`)).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId(`monitor-target-${ids.group}`)).toHaveText(tr(m, "monitors.group.memberCount_other", { count: 2 }));
      await expect(page.getByTestId(`monitor-type-${ids.group}`)).toContainText(tr(m, "monitors.types.group"));
      // A group is not checked: no "Check now" on its row.
      await expect(page.getByTestId(`monitor-check-${ids.group}`)).toHaveCount(0);

      const toggle = page.getByTestId(`monitor-toggle-${ids.group}`);
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await toggle.click();
      await expect(rows(page)).toHaveCount(2);
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(toggle).toHaveAccessibleName(tr(m, "monitors.group.expand", { name: "Shop" }));
      await toggle.click();
      await expect(rows(page)).toHaveCount(4);

      await page.getByRole("searchbox").fill("Cart");
      await expect(rows(page)).toHaveCount(1);
      await expect(depth(ids.cart)).toHaveAttribute("data-depth", "0");

      // The group's page: its members with their states, each a link to its page; deleting says the members stay.
      await page.goto(`/monitors/${ids.group}`);
      const members = page.getByTestId("monitor-members");
      await expect(members.locator("[data-testid^=monitor-member-status-]")).toHaveCount(2);
      await expect(page.getByTestId(`monitor-member-status-${ids.cart}`)).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId(`monitor-member-status-${ids.api}`)).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("monitor-last-error")).toHaveText(tr(m, "monitors.checkErrors.GROUP_DOWN", { down: 1, total: 2, names: "Cart" }));
      await expect(page.getByTestId("monitor-check-button")).toHaveCount(0);
      // Live: the member recovers, the group and its list follow without a reload.
      target.set("/cart", 200);
      await vigil.api("POST", `/api/monitors/${ids.cart}/check`, {}, session.token);
      await expect(page.getByTestId(`monitor-member-status-${ids.cart}`)).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up");
      // A monitor moved into the group joins the card; moved out, it leaves it.
      await vigil.api("PUT", `/api/monitors/${ids.blog}`, { parentId: ids.group }, session.token);
      await expect(page.getByTestId(`monitor-member-${ids.blog}`)).toBeVisible();
      await vigil.api("PUT", `/api/monitors/${ids.blog}`, { parentId: null }, session.token);
      await expect(page.getByTestId(`monitor-member-${ids.blog}`)).toHaveCount(0);
      await page.getByTestId("monitor-delete-button").click();
      await expect(page.getByRole("dialog")).toContainText(tr(m, "monitors.confirmDelete.groupMessage", { name: "Shop" }));
      await page.getByTestId("confirm-dialog-cancel").click();

      // A member's page names its group.
      await members.getByRole("link", { name: "Cart" }).click();
      await expect(page.getByTestId("monitor-parent-line")).toContainText("Shop");
    });

    test("the form creates a group with its rule, and puts a monitor in it", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const blog = await createMonitor(vigil, session, { name: "Blog", url: target.url("/blog") });
      await withSession(page, session, "/monitors/create");
      await page.getByTestId("monitor-type-group").check();
      // No target fields, no timeout or retries: a rule instead.
      await expect(page.locator('[name="url"]')).toHaveCount(0);
      await expect(page.locator('[name="retries"]')).toHaveCount(0);
      await page.getByTestId("monitor-group-rule").selectOption("all");
      await page.locator('[name="name"]').fill("Edge");
      await page.getByTestId("monitor-form").locator('button[type="submit"]').click();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);
      const group = Number(page.url().split("/").at(-1));
      expect((await vigil.api("GET", `/api/monitors/${group}`, undefined, session.token)).body.monitor).toMatchObject({ type: "group", groupRule: "all", name: "Edge" });
      await expect(page.getByTestId("monitor-members-none")).toHaveText(tr(m, "monitors.group.noMembers"));

      await page.goto(`/monitors/edit/${blog}`);
      const parent = page.getByTestId("monitor-parent");
      await expect(parent.locator("option")).toHaveText([tr(m, "monitors.group.none"), "Edge"]);
      await parent.selectOption(String(group));
      await page.getByTestId("monitor-form").locator('button[type="submit"]').click();
      await expect(page).toHaveURL(new RegExp(`/monitors/${blog}$`));
      expect((await vigil.api("GET", `/api/monitors/${blog}`, undefined, session.token)).body.monitor.parentId).toBe(group);
      // A group is not offered as its own group.
      await page.goto(`/monitors/edit/${group}`);
      await expect(page.getByTestId("monitor-parent").locator("option")).toHaveText([tr(m, "monitors.group.none")]);
    });

    test("a status page shows a group as one row that opens to its members, at a phone's width", async ({ page, vigil, target }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const session = await vigil.register("alice");
      const ids = await shop(vigil, session, target);
      const saved = await vigil.api("PUT", "/api/status/config", { title: "Acme", description: "", monitorIds: [ids.group], agentIds: [], announcement: null }, session.token);
      expect(saved.status).toBe(200);
      await page.goto("/status");
      const row = page.getByTestId(`status-monitor-${ids.group}`);
      await expect(row).toBeVisible();
      await expect(page.locator("[data-testid^=status-monitor-status-]")).toHaveCount(1);
      await expect(page.getByTestId(`status-monitor-status-${ids.group}`)).toHaveAttribute("data-status", "down");
      const toggle = page.getByTestId(`status-group-toggle-${ids.group}`);
      await expect(toggle).toHaveText(tr(m, "statusPage.group.show", { count: 2 }));
      await expect(page.getByTestId(`status-member-${ids.api}`)).toHaveCount(0);
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(page.getByTestId(`status-member-status-${ids.cart}`)).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId(`status-member-status-${ids.api}`)).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId(`status-member-${ids.api}`)).toContainText("API");
      // Nothing of the members' targets, and nothing wider than the phone.
      await expect(row).not.toContainText("127.0.0.1");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
