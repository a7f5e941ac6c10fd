import type { Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// Tags with a value and a colour (as Uptime Kuma users have them): "env:prod" shows as env: prod, filtering by env
// takes every value, an editor picks a colour per tag name (a viewer cannot), the form takes name:value, and the
// colour editor fits a phone.

const chip = (page: Page, scope: string, tag: string) => page.getByTestId(scope).locator(`[data-testid=tag][data-tag="${tag}"]`);
const bg = (page: Page, scope: string, tag: string) => chip(page, scope, tag).evaluate((el) => getComputedStyle(el).backgroundColor);
const rows = (page: Page) => page.locator("[data-testid^=monitor-link-]");

/** Shop (env:prod, web), Blog (env:staging), Wiki (no tags). */
async function fleet(vigil: Vigil) {
  const admin = await vigil.register("alice");
  const add = async (name: string, tags: string[]) =>
    (await vigil.api("POST", "/api/monitors", { name, url: "http://127.0.0.1:9/", active: false, tags }, admin.token)).body.monitor.id as number;
  return { admin, shop: await add("Shop", ["env:prod", "web"]), blog: await add("Blog", ["env:staging"]), wiki: await add("Wiki", []) };
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`tags (${locale})`, () => {
    test.use({ locale });

    test("name:value tags show both parts, filter by name (every value) or by name:value; the form takes name:value", async ({ page, vigil }) => {
      const { admin, shop, wiki } = await fleet(vigil);
      await withSession(page, admin, "/monitors");
      await expect(rows(page)).toHaveCount(3);
      const shopTag = chip(page, `monitor-tags-${shop}`, "env:prod");
      await expect(shopTag).toHaveText("env: prod");
      await expect(shopTag.getByTestId("tag-name")).toHaveText("env");
      await expect(shopTag.getByTestId("tag-value")).toHaveText("prod");

      const filter = (tag: string) => page.locator(`[data-testid=monitors-tag-filter][data-tag="${tag}"]`);
      await expect(filter("env")).toContainText("2");
      await filter("env").click();
      await expect(page).toHaveURL(/[?&]tag=env(&|$)/);
      await expect(rows(page)).toHaveText(["Blog", "Shop"]);
      await filter("env").click();
      await filter("env:prod").click();
      await expect(rows(page)).toHaveText(["Shop"]);
      await filter("env:prod").click();
      await expect(rows(page)).toHaveCount(3);

      await page.goto(`/monitors/edit/${wiki}`);
      await expect(page.getByText(tr(m, "monitors.form.tagsHint"))).toBeVisible();
      const input = page.getByTestId("monitor-tags").locator("input");
      await input.fill("team:ops");
      await input.press("Enter");
      await expect(chip(page, "monitor-tags", "team:ops")).toContainText("team: ops");
      await page.getByTestId("monitor-submit").click();
      await expect(page).toHaveURL(new RegExp(`/monitors/${wiki}$`));
      await expect(chip(page, "monitor-tags", "team:ops")).toHaveText("team: ops");
    });

    test("an editor gives a tag name a colour that every chip of it takes; Default brings the derived one back; a viewer sees it, without the editor", async ({ page, vigil }) => {
      const { admin, shop } = await fleet(vigil);
      await withSession(page, admin, "/monitors");
      await expect(rows(page)).toHaveCount(3);
      const derived = await bg(page, `monitor-tags-${shop}`, "env:prod");
      await page.getByTestId("tag-colors-open").click();
      const row = page.locator('[data-testid=tag-color-row][data-tag="env"]');
      await expect(row).toContainText(tr(m, "monitors.tagColors.monitors_other", { count: 2 }));
      await row.getByTestId("tag-color-input").fill("#1d4ed8");
      await row.getByTestId("tag-color-save").click();
      await expect(toast(page, tr(m, "monitors.tagColors.saved", { tag: "env" }))).toBeVisible();
      await expect(chip(page, `monitor-tags-${shop}`, "env:prod")).toHaveCSS("background-color", "rgb(29, 78, 216)");
      await expect(chip(page, `monitor-tags-${shop}`, "env:prod")).toHaveCSS("color", "rgb(255, 255, 255)");
      await expect(page.locator('[data-testid=monitors-tag-filter][data-tag="env:staging"]')).toHaveCSS("background-color", "rgb(29, 78, 216)");
      expect((await vigil.api("GET", "/api/tags", undefined, admin.token)).body.data).toContainEqual({ name: "env", color: "#1d4ed8", monitors: 2 });

      // Another page, another session: the colour is the instance's.
      const vera = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
      const viewer = await page.context().browser()!.newContext({ locale });
      const viewerPage = await viewer.newPage();
      await withSession(viewerPage, vera, `/monitors/${shop}`);
      // Colours load once the first chip shows (a moment after it on a busy machine).
      await expect(chip(viewerPage, "monitor-tags", "env:prod")).toHaveCSS("background-color", "rgb(29, 78, 216)", { timeout: 15_000 });
      await viewerPage.goto("/monitors");
      await expect(viewerPage.getByTestId("monitors-tags")).toBeVisible();
      await expect(viewerPage.getByTestId("tag-colors-open")).toHaveCount(0);
      await viewer.close();

      await row.getByTestId("tag-color-clear").click();
      await expect(toast(page, tr(m, "monitors.tagColors.cleared", { tag: "env" }))).toBeVisible();
      await expect(chip(page, `monitor-tags-${shop}`, "env:prod")).toHaveCSS("background-color", derived);
      await expect(row.getByTestId("tag-color-clear")).toHaveCount(0);
    });

    test("the tag colour editor fits a phone", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await vigil.api("POST", "/api/monitors", { name: "Shop", url: "http://127.0.0.1:9/", active: false, tags: ["env:production-eu-west", "team:payments"] }, admin.token);
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, admin, "/monitors");
      await page.getByTestId("tag-colors-open").click();
      await expect(page.getByTestId("tag-color-row")).toHaveCount(2);
      await expect(page.getByTestId("tag-colors")).toContainText(tr(m, "monitors.tagColors.title"));
      const row = page.locator('[data-testid=tag-color-row][data-tag="team"]');
      await expect(row.getByTestId("tag-color-save")).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
