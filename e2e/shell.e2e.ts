import { expect, test, withSession } from "./fixtures";

test.describe("language", () => {
  test.use({ locale: "fr-FR" });

  test("zh-CN is the default for an unsupported browser language", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("时刻掌握你的服务是否健康");
  });

  test("switching to English and back, remembered across reloads", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("language-switch").selectOption("en-US");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Know your services are healthy, all the time");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    expect(await page.evaluate(() => localStorage.getItem("vigil.language"))).toBe("en-US");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Know your services are healthy, all the time");
    await page.getByTestId("language-switch").selectOption("zh-CN");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("时刻掌握你的服务是否健康");
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  });

  test("the query string wins over everything else", async ({ page }) => {
    await page.goto("/?lng=en-US");
    await expect(page.getByTestId("nav-login")).toHaveText("Login");
  });
});

test.describe("language from the browser", () => {
  test.use({ locale: "en-US" });
  test("an English browser gets English", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("nav-login")).toHaveText("Login");
    await expect(page.getByTestId("features")).toContainText("Monitors");
  });
});

for (const lang of [
  { locale: "zh-CN", notFound: "页面不存在", home: "返回首页", dashboard: "仪表盘" },
  { locale: "en-US", notFound: "Page not found", home: "Return home", dashboard: "Dashboard" },
]) {
  test.describe(`shell (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("unknown paths show the not-found page with a way home", async ({ page }) => {
      await page.goto("/no/such/page");
      await expect(page.getByTestId("not-found")).toContainText(lang.notFound);
      await expect(page.getByTestId("navbar")).toBeVisible();
      await page.getByTestId("not-found-home").click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByTestId("home")).toBeVisible();
    });

    test("a signed-in user opening / lands on /dashboard (the landing page is replaced in history)", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/");
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByTestId("nav-link-dashboard")).toHaveText(lang.dashboard);
      await expect(page.getByTestId("nav-link-dashboard")).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("home")).toHaveCount(0);
      // Replaced, not pushed: Back leaves for the page before "/" (the tab's blank start) instead of bouncing back to
      // /dashboard.
      await page.goBack();
      await expect(page).toHaveURL("about:blank");
    });

    test("signed-in navbar: links, active link, placeholders for later screens", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/dashboard");
      const dashboard = page.getByTestId("nav-link-dashboard");
      await expect(dashboard).toHaveText(lang.dashboard);
      await expect(dashboard).toHaveAttribute("aria-current", "page");
      for (const id of ["monitors", "agents", "status", "notifications"]) await expect(page.getByTestId(`nav-link-${id}`)).toBeVisible();
      // No install prompt from the browser: no Install app button. Once it offers one, the button appears.
      await expect(page.getByTestId("nav-install")).toHaveCount(0);
      await page.evaluate(() => {
        const event = new Event("beforeinstallprompt", { cancelable: true });
        Object.assign(event, { prompt: async () => {}, userChoice: Promise.resolve({ outcome: "dismissed", platform: "" }) });
        window.dispatchEvent(event);
      });
      await expect(page.getByTestId("nav-install")).toBeVisible();
      await page.getByTestId("nav-install").click(); // the prompt is used up either way
      await expect(page.getByTestId("nav-install")).toHaveCount(0);
      await page.getByTestId("nav-link-notifications").click();
      await expect(page).toHaveURL(/\/notifications$/);
      await expect(page.getByTestId("nav-link-notifications")).toHaveAttribute("aria-current", "page");
      await expect(dashboard).not.toHaveAttribute("aria-current", "page");
    });
  });
}

test("layout routes need a session", async ({ page }) => {
  for (const path of ["/dashboard", "/profile", "/users", "/monitors/create"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
});

test("/status renders without navbar and footer", async ({ page }) => {
  await page.goto("/status");
  await expect(page.getByTestId("status-page")).toBeVisible();
  await expect(page.getByTestId("navbar")).toHaveCount(0);
  await expect(page.getByTestId("footer")).toHaveCount(0);
});

test("the navbar takes its scrolled style past 10 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto("/");
  await expect(page.getByTestId("features")).toBeVisible(); // the page is tall enough to scroll once it has rendered
  const nav = page.getByTestId("navbar");
  await expect(nav).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 10));
  await page.waitForTimeout(100);
  await expect(nav).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 200));
  await expect(nav).toHaveAttribute("data-scrolled", "true");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(nav).toHaveAttribute("data-scrolled", "false");
});

test("footer: this year's copyright and the three links from the server", async ({ page, vigil }) => {
  const config = await vigil.api("GET", "/api/config");
  await page.goto("/");
  await expect(page.getByTestId("footer-copyright")).toContainText(`© ${new Date().getFullYear()} Vigil`);
  await expect(page.getByTestId("footer-blog")).toHaveAttribute("href", config.body.links.blog);
  await expect(page.getByTestId("footer-video")).toHaveAttribute("href", config.body.links.video);
  await expect(page.getByTestId("footer-temp-mail")).toHaveAttribute("href", config.body.links.tempMail);
  await expect(page.getByTestId("footer-blog")).toHaveAttribute("target", "_blank");
});

test("small screens put the links in a dropdown", async ({ page, vigil }) => {
  const admin = await vigil.register("alice");
  await page.setViewportSize({ width: 375, height: 740 });
  await withSession(page, admin, "/dashboard");
  await expect(page.getByTestId("nav-link-monitors")).toHaveCount(0);
  await page.getByTestId("nav-menu-button").click();
  await expect(page.getByTestId("nav-mobile-menu")).toBeVisible();
  await page.getByTestId("nav-link-monitors").click();
  await expect(page).toHaveURL(/\/monitors$/);
});

for (const locale of ["en-US", "zh-CN"]) {
  test.describe(`the navbar (${locale})`, () => {
    test.use({ locale });
    test("from 1200 px every link sits in the bar without sideways scroll; at 1024 px they are in the menu", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await page.setViewportSize({ width: 1200, height: 700 });
      await withSession(page, admin, "/dashboard");
      for (const id of ["dashboard", "monitors", "agents", "incidents", "maintenance", "status", "notifications"]) await expect(page.getByTestId(`nav-link-${id}`)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1200);
      await page.setViewportSize({ width: 1024, height: 700 });
      await expect(page.getByTestId("nav-menu-button")).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    });
  });
}

test("toasts sit bottom-right under a 'Notifications' label", async ({ page, vigil }) => {
  await vigil.register("alice");
  await page.goto("/login?lng=en-US");
  const form = page.getByTestId("login-form");
  await form.locator("input[name=username]").fill("alice");
  await form.locator("input[name=password]").fill("correct horse");
  await page.getByTestId("login-submit").click();
  const region = page.getByRole("region", { name: /Notifications/ });
  await expect(region).toBeAttached();
  const toaster = page.locator("[data-sonner-toaster]");
  await expect(toaster).toHaveAttribute("data-y-position", "bottom");
  await expect(toaster).toHaveAttribute("data-x-position", "right");
  await expect(page.locator("[data-sonner-toast][data-type=success]")).toHaveCount(1);
});

test.describe(() => {
  test.use({ serviceWorkers: "allow" });
  test("PWA: manifest linked and the service worker at /sw.js registered", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    const scriptUrl = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active?.scriptURL;
    });
    expect(scriptUrl).toMatch(/\/sw\.js$/);
    const manifest = await (await page.request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ name: "Vigil", start_url: "/" });
  });
});
