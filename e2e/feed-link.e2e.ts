import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, tr, toast } from "./i18n";

// The secret feed link of a password-protected status page, in the browser, both languages: the admin creates it on
// the page's settings, a feed reader (no session, no password) reads the feed in the instance's language with it, a
// new link ends the old one, and a viewer sees no link at all.

for (const [locale, m] of LANGUAGES) {
  test.describe(`status page feed link (${locale})`, () => {
    test.use({ locale });

    test("create, copy, use and replace the feed link; viewers do not see it", async ({ page, browser, vigil }) => {
      test.slow(); // two browser contexts, a reload and two sessions: more than 30 s on a busy two-core machine
      const admin = await vigil.register("alice");
      const settings = (await vigil.api("GET", "/api/notifications/settings", undefined, admin.token)).body.settings;
      await vigil.api("PUT", "/api/notifications/settings", { ...settings, language: locale }, admin.token);
      const shop = (await vigil.api("POST", "/api/monitors", { name: "Shop", url: "http://127.0.0.1:9/", active: false }, admin.token)).body.monitor.id;
      const created = await vigil.api("POST", "/api/status-pages", {
        slug: "partners", title: "Partners", description: "", logo: null, customDomain: null, visibility: "password", password: "open sesame", announcement: null,
        groups: [{ name: "", items: [{ type: "monitor", id: shop }] }],
      }, admin.token);
      const id = created.body.page.id;
      await vigil.api("POST", "/api/incidents", { title: "Checkout errors", impact: "major", monitorIds: [shop], update: { state: "investigating", message: "Looking into it." } }, admin.token);
      // A feed reader has neither a session nor the password.
      const reader = await browser.newContext();
      const feed = (url: string) => reader.request.get(url);
      expect((await feed(`${vigil.url}/api/status/pages/partners/feed.atom`)).status()).toBe(401);

      await withSession(page, admin, `/status-pages/${id}`);
      const card = page.getByTestId("feed-card");
      await expect(card).toContainText(tr(m, "statusPages.feed.title"));
      await expect(page.getByTestId("feed-none")).toHaveText(tr(m, "statusPages.feed.none"));
      await page.getByTestId("feed-create").click();
      await expect(toast(page, tr(m, "statusPages.feed.created"))).toBeVisible();
      const atom = page.getByTestId("feed-atom");
      await expect(atom).toContainText("/api/status/pages/partners/feed.atom?key=");
      await expect(page.getByTestId("feed-rss")).toContainText("/api/status/pages/partners/feed.rss?key=");
      const first = (await atom.textContent())!;
      await page.getByTestId("feed-atom-copy").click();
      await expect(toast(page, tr(m, "statusPages.feed.copied"))).toBeVisible();

      const read = await feed(first);
      expect(read.status()).toBe(200);
      expect(await read.text()).toContain(`<title>[${tr(m, "incidents.states.investigating")}] Checkout errors</title>`);

      // The link is still there after a reload; a new one replaces it, and the old one stops working.
      await page.reload();
      await expect(atom).toHaveText(first);
      await page.getByTestId("feed-renew").click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(tr(m, "statusPages.feed.renewMessage"));
      await dialog.getByRole("button", { name: tr(m, "statusPages.feed.renew") }).click();
      await expect(toast(page, tr(m, "statusPages.feed.renewed"))).toBeVisible();
      await expect(atom).not.toHaveText(first);
      const second = (await atom.textContent())!;
      expect((await feed(first)).status()).toBe(401);
      expect((await feed(second)).status()).toBe(200);

      // Turned off: no link, and the last one is dead too.
      await page.getByTestId("feed-off").click();
      await expect(toast(page, tr(m, "statusPages.feed.turnedOff"))).toBeVisible();
      await expect(page.getByTestId("feed-none")).toBeVisible();
      expect((await feed(second)).status()).toBe(401);
      await page.getByTestId("feed-create").click();
      await expect(atom).toContainText("?key=");
      await reader.close();

      // A viewer opens the same settings: no feed link card.
      const vera = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
      const viewer = (await vigil.api("POST", "/api/auth/login", { username: "vera", password: "correct horse" })).body;
      await withSession(page, viewer, `/status-pages/${id}`);
      await expect(page.getByTestId("page-slug")).toHaveValue("partners");
      await expect(page.getByTestId("viewer-note")).toBeVisible();
      await expect(page.getByTestId("feed-card")).toHaveCount(0);
    });
  });
}
