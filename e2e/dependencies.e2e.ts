import { expect, withSession } from "./fixtures";
import { check, createMonitor, formOf, test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// Dependencies and upside down in the browser, both languages: the form's "Depends on" picker (search by name,
// itself left out, a cycle refused under the field) and its "Upside down" switch for every type; the detail page
// shows both, and while a parent is down the child's failures read "Unreachable: <parent> is down — alerts held"
// until the parent recovers. And on a phone.

for (const [locale, m] of LANGUAGES) {
  test.describe(`dependencies and upside down (${locale})`, () => {
    test.use({ locale });

    test("create with a dependency and upside down; the detail page shows both; a cycle is refused under the field", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const router = await createMonitor(vigil, admin, { name: "Router", url: target.url("/router"), retries: 0, interval: 60 });
      await createMonitor(vigil, admin, { name: "Printer", url: target.url("/printer"), retries: 0, interval: 60 });
      await withSession(page, admin, "/monitors/create");
      const { field, radio, submit } = formOf(page, m);
      await radio("tcp").check();
      await field("name").fill("Database");
      await field("host").fill("127.0.0.1");
      await field("port").fill("1");
      await expect(page.getByText(tr(m, "monitors.form.upsideDownHint"))).toBeVisible();
      await field("upsideDown").check();
      const picker = page.getByTestId("monitor-depends-on");
      await expect(picker).toContainText(tr(m, "monitors.form.dependsOn"));
      await expect(page.getByTestId("monitor-depends-on-none")).toHaveText(tr(m, "monitors.form.dependsOnNone"));
      await page.getByTestId("monitor-depends-on-search").fill("rout");
      await expect(page.getByTestId(`monitor-depends-on-option-${router}`)).toBeVisible();
      await expect(picker.getByText("Printer")).toHaveCount(0);
      await page.getByTestId(`monitor-depends-on-option-${router}`).check();
      await expect(page.getByTestId(`monitor-depends-on-selected-${router}`)).toContainText("Router");
      await submit();

      await expect(page).toHaveURL(/\/monitors\/\d+$/);
      const id = Number(page.url().split("/").pop());
      await expect(page.getByTestId("monitor-info-upside-down")).toHaveText(tr(m, "monitors.detail.info.upsideDownOn"));
      await expect(page.getByTestId(`monitor-depends-on-${router}`)).toHaveText("Router");
      // Port 1 refuses: upside down, that is up.
      await expect(page.getByTestId("monitor-status")).toHaveText(tr(m, "monitors.status.up"));

      // The router made to depend on the database: a cycle, refused under the picker, in the reader's language.
      await page.goto(`/monitors/edit/${router}`);
      await expect(page.getByTestId(`monitor-depends-on-option-${router}`)).toHaveCount(0); // not itself
      await page.getByTestId("monitor-depends-on-search").fill("Datab");
      await page.getByTestId(`monitor-depends-on-option-${id}`).check();
      await submit();
      await expect(page.getByTestId("monitor-depends-on")).toContainText("Router → Database → Router");
      await expect(page).toHaveURL(new RegExp(`/monitors/edit/${router}$`));
    });

    test("while the parent is down the child says why nobody is alerted; the notice goes once the parent recovers", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      target.set("/router", 500);
      target.set("/app", 500);
      const router = await createMonitor(vigil, admin, { name: "Router", url: target.url("/router"), retries: 0, interval: 60 });
      const app = await createMonitor(vigil, admin, { name: "App", url: target.url("/app"), retries: 0, interval: 60, dependsOn: [router] });
      await check(vigil, admin, app);
      await withSession(page, admin, `/monitors/${app}`);
      const notice = page.getByTestId("monitor-unreachable");
      await expect(notice).toHaveText(`${tr(m, "monitors.detail.unreachableBefore")}Router${tr(m, "monitors.detail.unreachableAfter")}`);
      await expect(page.getByTestId("monitor-last-error")).toHaveText(tr(m, "monitors.checkErrors.UNREACHABLE", { parent: "Router" }));
      await expect(page.getByTestId("monitor-status")).toHaveText(tr(m, "monitors.status.down"));
      await expect(page.getByTestId(`monitor-depends-on-${router}`)).toHaveText("Router");

      // The router recovers (checked elsewhere): the page follows it live.
      target.set("/router", 200);
      await check(vigil, admin, router);
      await expect(notice).toHaveCount(0);
    });
  });
}

test.describe("dependencies on a phone", () => {
  test.use({ locale: "en-US", viewport: { width: 390, height: 844 } });

  test("the picker and the notice fit the screen", async ({ page, vigil, target }) => {
    const [, m] = LANGUAGES[1];
    const admin = await vigil.register("alice");
    target.set("/router", 500);
    target.set("/app", 500);
    const router = await createMonitor(vigil, admin, { name: "Router", url: target.url("/router"), retries: 0, interval: 60 });
    const app = await createMonitor(vigil, admin, { name: "App", url: target.url("/app"), retries: 0, interval: 60, dependsOn: [router] });
    await check(vigil, admin, app);
    await withSession(page, admin, `/monitors/${app}`);
    await expect(page.getByTestId("monitor-unreachable")).toBeVisible();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await page.goto(`/monitors/edit/${app}`);
    await expect(page.getByTestId(`monitor-depends-on-selected-${router}`)).toContainText("Router");
    await expect(formOf(page, m).field("upsideDown")).toBeVisible();
    expect(await fits()).toBe(true);
  });
});
