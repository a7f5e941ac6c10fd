import { expect, withSession } from "./fixtures";
import { createMonitor, test } from "./helpers";
import { LANGUAGES, tr, toast } from "./i18n";

// Incidents and a second status page in both languages, against the real server: an incident made from a monitor's
// outage, its timeline, the public page showing it open and then in its history; a password-protected page in
// groups, made on /status-pages and opened signed out; desktop and phone.

for (const [locale, m] of LANGUAGES) {
  test.describe(`incidents and status pages (${locale})`, () => {
    test.use({ locale });

    test("an incident from a monitor's outage: timeline, resolved; the status page shows it open, then in its history", async ({ page, vigil, target, context }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/fail"), retries: 0 });
      await vigil.api("PUT", "/api/status/config", { title: "Acme", description: "", monitorIds: [shop], agentIds: [], announcement: null }, admin.token);
      await withSession(page, admin, `/monitors/${shop}`);
      await expect(page.getByTestId("incident-offer")).toBeVisible();
      await page.getByTestId("incident-offer-create").click();
      await expect(page.getByTestId("incident-title-input")).toHaveValue(tr(m, "incidents.fromOutageTitle", { name: "Shop API" }));
      await expect(page.getByTestId(`incident-monitors-selected-${shop}`)).toBeVisible();
      await page.getByTestId("incident-save").click();
      await expect(page.getByTestId("incident-error-message")).toHaveText(tr(m, "incidents.errors.messageRequired"));
      await page.getByTestId("incident-message").fill("Checkout fails.\nDetails: https://example.com/acme");
      await page.getByTestId("incident-save").click();
      await expect(toast(page, tr(m, "incidents.created"))).toBeVisible();
      await expect(page.getByTestId("incident-state-badge")).toHaveText(tr(m, "incidents.states.investigating"));
      await expect(page.getByTestId("incident-timeline").getByRole("link", { name: "https://example.com/acme" })).toHaveAttribute("rel", /noopener/);

      await page.getByTestId("incident-update-state").selectOption("identified");
      await page.getByTestId("incident-update-message").fill("The payment provider is down.");
      await page.getByTestId("incident-update-post").click();
      await expect(toast(page, tr(m, "incidents.posted"))).toBeVisible();
      await expect(page.getByTestId("incident-timeline-item")).toHaveCount(2);
      await expect(page.getByTestId("incident-state-badge")).toHaveText(tr(m, "incidents.states.identified"));
      const id = Number(page.url().split("/").pop());

      // The public page, signed out: open incident at the top with its whole timeline.
      const visitor = await context.newPage();
      await visitor.goto("/status");
      const open = visitor.getByTestId(`status-incident-${id}`);
      await expect(open).toContainText(tr(m, "incidents.fromOutageTitle", { name: "Shop API" }));
      await expect(open.getByTestId("status-incident-update")).toHaveCount(2);
      await expect(open.getByTestId("status-incident-update").first()).toContainText("The payment provider is down.");
      await expect(open).toContainText(tr(m, "statusPage.maintenance.affects", { names: "Shop API" }));

      await page.getByTestId("incident-update-state").selectOption("resolved");
      await page.getByTestId("incident-update-message").fill("Fixed.");
      await page.getByTestId("incident-update-post").click();
      await expect(page.getByTestId("incident-state-badge")).toHaveText(tr(m, "incidents.states.resolved"));
      await visitor.reload();
      await expect(visitor.getByTestId("status-incidents")).toHaveCount(0);
      await expect(visitor.getByTestId(`status-history-${id}`)).toBeVisible();

      await page.goto("/incidents?status=resolved");
      await expect(page.getByTestId(`incident-row-${id}`)).toBeVisible();
      await page.setViewportSize({ width: 390, height: 800 });
      await expect(page.getByTestId(`incident-row-${id}`).getByTestId("incident-title")).toBeVisible();
      // Polled: a toast laid out for the wider window moves in a frame later.
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });

    test("a second status page with a password, in groups: made on /status-pages, opened signed out, on a phone too", async ({ page, vigil, target, context }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop") });
      await withSession(page, admin, "/status/config");
      await page.getByTestId("status-config-all-pages").click();
      await expect(page).toHaveURL(/\/status-pages$/);
      await page.getByTestId("status-pages-create").click();
      await page.getByTestId("page-slug").fill("partners");
      await page.getByTestId("page-title").fill("Partner status");
      await page.getByTestId("page-group-name-0").fill("Storefront");
      await page.getByTestId(`page-group-0-monitors-option-${shop}`).check();
      await page.getByTestId("page-visibility").selectOption("password");
      await page.getByTestId("page-password").fill("123");
      await page.getByTestId("page-save").click();
      await expect(page.getByTestId("form-error")).toHaveText(tr(m, "errors.STATUS_PAGE_PASSWORD_SHORT"));
      await page.getByTestId("page-password").fill("open sesame");
      await page.getByTestId("page-save").click();
      await expect(toast(page, tr(m, "statusPages.created"))).toBeVisible();
      await expect(page.getByTestId("status-pages-list").locator(":scope > li")).toHaveCount(2);
      const { body } = await vigil.api("GET", "/api/status-pages", undefined, admin.token);
      const created = body.pages.find((p: { slug: string }) => p.slug === "partners");
      expect(created).toMatchObject({ visibility: "password", hasPassword: true, groups: [{ name: "Storefront", items: [{ type: "monitor", id: shop }] }] });
      await expect(page.getByTestId(`status-page-row-${created.id}`)).toHaveAttribute("data-visibility", "password");

      // Signed out: the password, then the page in its group.
      const visitor = await context.newPage();
      await visitor.goto("/404");
      await visitor.evaluate(() => localStorage.clear());
      await visitor.goto("/status/partners");
      await expect(visitor.getByTestId("status-unlock")).toContainText(tr(m, "statusPage.unlock.title"));
      await visitor.getByTestId("status-unlock-password").fill("guess");
      await visitor.getByTestId("status-unlock-submit").click();
      await expect(visitor.getByTestId("status-unlock-error")).toHaveText(tr(m, "statusPage.unlock.wrong"));
      await visitor.getByTestId("status-unlock-password").fill("open sesame");
      await visitor.getByTestId("status-unlock-submit").click();
      await expect(visitor.getByTestId("status-title")).toHaveText("Partner status");
      await expect(visitor.getByTestId("status-group-name")).toHaveText("Storefront");
      await expect(visitor.getByTestId(`status-monitor-${shop}`)).toBeVisible();
      // Remembered in this browser.
      await visitor.reload();
      await expect(visitor.getByTestId("status-title")).toHaveText("Partner status");
      await visitor.setViewportSize({ width: 390, height: 800 });
      await expect(visitor.getByTestId(`status-monitor-${shop}`)).toBeVisible();
      await expect.poll(() => visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // An unknown address says so.
      await visitor.goto("/status/nothing-here");
      await expect(visitor.getByTestId("status-error")).toContainText(tr(m, "statusPage.notFound"));
    });
  });
}

test("/incidents and /status-pages need a session", async ({ page, vigil }) => {
  await page.goto(`${vigil.url}/incidents`);
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`${vigil.url}/status-pages`);
  await expect(page).toHaveURL(/\/login/);
});
