// Intervals in seconds: a 20 s monitor made through the form (seconds chosen in the unit select, the timeout following
// it), shown as "every 20 s" on its page and in the list, and checked again 20 s after its first check. Both
// languages, on a desktop and at a phone's width.
import { expect, withSession } from "./fixtures";
import { formOf, test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

const VIEWPORTS = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;

for (const [locale, m] of LANGUAGES) {
  for (const [device, viewport] of VIEWPORTS) {
    test.describe(`intervals in seconds (${locale}, ${device})`, () => {
      test.use({ locale, viewport });

      test("a 20 s monitor through the form: shown every 20 s and checked again 20 s later", async ({ page, vigil, target }) => {
        test.setTimeout(60_000);
        const session = await vigil.register("alice");
        await withSession(page, session, "/monitors/create");
        const { field, error, submit } = formOf(page, m);
        await field("name").fill("Fast API");
        await field("url").fill(target.url("/fast"));

        // Seconds in the unit select; the untouched timeout follows (0.8 × 20 s), as the server would give it.
        await field("intervalUnit").selectOption("s");
        await field("interval").fill("0");
        await submit();
        await expect(error("interval")).toHaveText(tr(m, "monitors.validation.intervalInvalid"));
        await field("interval").fill("20");
        await expect(error("interval")).toHaveCount(0);
        await expect(field("timeout")).toHaveValue("16");
        // A fraction is a valid timeout; one at the retry interval is not.
        await field("retryIntervalUnit").selectOption("s");
        await field("retryInterval").fill("5");
        await field("timeout").fill("5");
        await expect(error("timeout")).toHaveText(tr(m, "monitors.validation.timeoutTooLongRetry"));
        await field("timeout").fill("2.5");
        await expect(error("timeout")).toHaveCount(0);
        await submit();
        await expect(toast(page, tr(m, "monitors.created"))).toBeVisible();
        await expect(page).toHaveURL(/\/monitors\/\d+$/);

        const [created] = (await vigil.api("GET", "/api/monitors", undefined, session.token)).body.monitors;
        expect(created).toMatchObject({ intervalSeconds: 20, retryIntervalSeconds: 5, timeout: 2.5, interval: 1 / 3 });
        const every = (count: number) => tr(m, "monitors.detail.info.every", { every: tr(m, "monitors.duration.seconds", { count }) });
        await expect(page.getByTestId("monitor-info-interval")).toHaveText(every(20));
        await expect(page.getByTestId("monitor-info-retry-interval")).toHaveText(every(5));
        await expect(page.getByTestId("monitor-info-timeout")).toHaveText(tr(m, "monitors.detail.info.seconds", { count: 2.5 }));

        // Checked at once, then again on its 20 s grid (within 20 s + the 5 s after the first): two cells, live.
        const cells = page.getByTestId("monitor-strip").getByTestId("check-cell");
        await expect(cells).toHaveCount(1);
        await expect(cells).toHaveCount(2, { timeout: 27_000 });

        await page.goto("/monitors");
        await expect(page.getByTestId(`monitor-interval-${created.id}`)).toContainText(
          tr(m, "monitors.list.every", { every: tr(m, "monitors.duration.seconds", { count: 20 }) }),
        );
        await expect(page.getByTestId(`monitor-interval-${created.id}`)).toBeVisible();
      });
    });
  }
}
