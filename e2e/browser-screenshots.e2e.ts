import { expect, withSession } from "./fixtures";
import { test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// A browser monitor's failure screenshots on its page, both languages: none before a failure; after a failed check
// (the button, then another from the API, which the page hears live) the latest one shown as an image with its time
// and error, the earlier one in the list and shown when picked. Other types have no such section.

for (const [locale, m] of LANGUAGES) {
  test.describe(`browser failure screenshots (${locale})`, () => {
    test.use({ locale });

    test("the latest failure's screenshot, its time and error; the earlier ones listed", async ({ page, vigil, target }) => {
      // The check's own limit is generous: on a loaded two-core machine Chromium's start and the page's load took
      // most of 15 s once, and the check then failed on its limit before it could look for #checkout.
      test.setTimeout(120_000);
      const session = await vigil.register("alice");
      target.body("/shop", "<!doctype html><html><body><h1>Shop</h1></body></html>", "text/html");
      // Paused: only the checks this test asks for run.
      const created = await vigil.api(
        "POST",
        "/api/monitors",
        { name: "Shop page", type: "browser", active: false, timeout: 40, settings: { url: target.url("/shop"), selector: "#checkout" } },
        session.token,
      );
      expect(created.status).toBe(201);
      const id: number = created.body.monitor.id;

      await withSession(page, session, `/monitors/${id}`);
      const card = page.getByTestId("monitor-screenshots");
      await expect(card).toContainText(tr(m, "monitors.detail.screenshots.title"));
      await expect(card.getByTestId("monitor-screenshots-none")).toHaveText(tr(m, "monitors.detail.screenshots.none"));

      await page.getByTestId("monitor-check-button").click();
      await expect(page.getByTestId("monitor-check-result")).toHaveAttribute("data-status", "down", { timeout: 45_000 });
      const image = card.getByTestId("monitor-screenshot-image");
      await expect(image).toBeVisible();
      await expect(image).toHaveAttribute("alt", tr(m, "monitors.detail.screenshots.alt"));
      // The PNG came through (fetched with the token, shown from an object URL): Chromium's 1280×720 page.
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
      expect(await image.getAttribute("src")).toMatch(/^blob:/);
      await expect(card.getByTestId("monitor-screenshot-error")).toContainText("#checkout");
      const first = await card.getByTestId("monitor-screenshot-time").getAttribute("datetime");

      // Another failure, checked from the API: the page hears of it and shows it; the first is in the list.
      const again = await vigil.api("POST", `/api/monitors/${id}/check`, {}, session.token);
      expect(again.body.result.status).toBe("down");
      const items = card.getByTestId("monitor-screenshots-item");
      await expect(card.getByRole("heading", { name: tr(m, "monitors.detail.screenshots.others") })).toBeVisible();
      await expect(items).toHaveCount(2);
      await expect(card.getByTestId("monitor-screenshot-time")).not.toHaveAttribute("datetime", first!);
      await expect(items.first()).toHaveAttribute("aria-current", "true");
      await items.nth(1).click();
      await expect(items.nth(1)).toHaveAttribute("aria-current", "true");
      await expect(card.getByTestId("monitor-screenshot-time")).toHaveAttribute("datetime", first!);
      await expect.poll(() => card.getByTestId("monitor-screenshot-image").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    });

    test("other types have no screenshots section", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const created = await vigil.api("POST", "/api/monitors", { name: "Site", url: target.url("/"), active: false }, session.token);
      await withSession(page, session, `/monitors/${created.body.monitor.id}`);
      await expect(page.getByTestId("monitor-name")).toHaveText("Site");
      await expect(page.getByTestId("monitor-screenshots")).toHaveCount(0);
    });
  });
}
