import { expect, withSession } from "./fixtures";
import { check, createMonitor, formOf, test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// An availability objective set in the monitor form (a bad one refused under its field), then the error budget on
// the monitor's page: a failed check of two or three spends a 99 % budget, and the card says so in the page's language.

for (const [locale, m] of LANGUAGES) {
  test.describe(`objectives (${locale})`, () => {
    test.use({ locale });

    test("set an objective in the form; the monitor page shows the budget spent", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/shop"), interval: 1440 });
      target.set("/shop", 500);
      expect((await check(vigil, admin, id)).status).toBe(200);
      await withSession(page, admin, `/monitors/edit/${id}`);

      const f = formOf(page, m);
      await f.field("objective").fill("100");
      await f.submit();
      await expect(f.error("objective")).toHaveText(tr(m, "monitors.validation.objectiveInvalid"));
      await f.field("objective").fill("99");
      await f.field("objectiveDays").fill("7");
      await f.submit();
      await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));

      const card = page.getByTestId("monitor-budget");
      await expect(card).toContainText(tr(m, "monitors.detail.budget.title"));
      await expect(card.getByTestId("budget-objective")).toHaveText(tr(m, "monitors.detail.budget.objectiveValue", { objective: 99, days: 7 }));
      await expect(card.getByTestId("budget-state")).toHaveText(tr(m, "monitors.detail.budget.states.exhausted"));
      // Saving the form may check once more (still failing): a third or half of the checks failed, 1 % was allowed.
      await expect(card.getByTestId("budget-availability")).toHaveText(/^(33\.333|50\.000) %$/);
      await expect(card.getByTestId("budget-remaining")).toContainText(/^-\d+(\.\d)? %/);
    });
  });
}
