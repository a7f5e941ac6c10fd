import type { Page } from "@playwright/test";
import { expect, test, withSession, type Vigil } from "./fixtures";
import { LANGUAGES, toast, tr, type Messages } from "./i18n";

// On-call schedules in the browser, both languages, the browser in New York and the schedule in Berlin (so every time
// on screen must be the schedule's): a daily rotation of two people made through the form from the navigation, its
// page saying who is on call now and who is next, with the two weeks' shifts; an override for whoever is not on call
// puts them on call at once (typed in Berlin wall time), and deleting it gives the duty back. A viewer reads all of it
// without controls. On a 390 px phone a weekly rotation of three is made (people moved and removed), an override
// added, and nothing scrolls sideways.

const ZONE = "Europe/Berlin";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** "2026-03-28T20:00": the wall time in a zone, as a datetime-local input holds it. */
function wall(ms: number, zone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** A moment as the on-call screens write it (ui/pages/oncall/model.ts whenOptions), in the page's language. */
const shown = (page: Page, at: number, zone = ZONE) =>
  page.evaluate(
    ([at, zone]) => {
      const now = Math.floor(Date.now() / 3_600_000) * 3_600_000; // the page re-decides once an hour
      const near = at >= now - 86_400_000 && at - now < 6 * 86_400_000;
      const options: Intl.DateTimeFormatOptions = near
        ? { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }
        : { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone };
      return new Intl.DateTimeFormat(document.documentElement.lang, options).format(at);
    },
    [at, zone] as const,
  );

interface Schedule {
  id: number;
  name: string;
  now: { userId: number; username: string; until: number | null } | null;
  next: { userId: number; username: string; from: number } | null;
}
const schedulesOf = async (vigil: Vigil, token: string) => (await vigil.api("GET", "/api/oncall/schedules", undefined, token)).body.schedules as Schedule[];

/** The now and next lines of a schedule as the API says them, checked on the page under `prefix`. */
async function expectNowNext(page: Page, m: Messages, prefix: string, s: Schedule) {
  await expect(page.getByTestId(`${prefix}-now`)).toHaveText(tr(m, "oncall.now", { name: s.now!.username, time: await shown(page, s.now!.until!) }));
  await expect(page.getByTestId(`${prefix}-next`)).toHaveText(tr(m, "oncall.next", { name: s.next!.username, time: await shown(page, s.next!.from) }));
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`on-call schedules (${locale})`, () => {
    test.use({ locale, timezoneId: "America/New_York" });

    test("a daily rotation of two made through the form; now and next; an override changes who is on call, deleting it gives it back", async ({ page, vigil }) => {
      test.slow(); // a form, two pages and an override on a busy two-core machine
      const alice = await vigil.register("alice");
      const bob = await vigil.register("bob");
      await withSession(page, alice, "/dashboard");
      await page.getByTestId("nav-link-oncall").click();
      await expect(page).toHaveURL(/\/oncall$/);
      await expect(page.getByTestId("nav-link-oncall")).toHaveText(tr(m, "nav.oncall"));
      await expect(page.getByTestId("oncall-empty")).toHaveText(tr(m, "oncall.empty"));

      await page.getByTestId("oncall-add").click();
      const form = page.getByTestId("oncall-form");
      // Refused here first: no name, nobody in it.
      await form.getByTestId("oncall-save").click();
      await expect(form.getByTestId("oncall-error-name")).toHaveText(tr(m, "oncall.form.errors.nameRequired"));
      await expect(form.getByTestId("oncall-error-participants")).toHaveText(tr(m, "oncall.form.errors.noParticipants"));
      await expect(form.getByTestId("oncall-fix-errors")).toHaveText(tr(m, "oncall.form.fixErrors"));
      // The first shift started yesterday (in Berlin) at a handover about 12 hours from now, so the three-hour override
      // below never reaches a handover (where the rotation's own shift would join it and move its end).
      const yesterday = wall(Date.now() - DAY, ZONE).slice(0, 10);
      const handover = `${String((Number(wall(Date.now(), ZONE).slice(11, 13)) + 12) % 24).padStart(2, "0")}:00`;
      await form.getByTestId("oncall-name").fill("Web team");
      await form.getByTestId("oncall-zone").selectOption(ZONE);
      await form.getByTestId("oncall-rotation").selectOption("daily");
      await expect(form.getByTestId("oncall-weekday")).toHaveCount(0);
      await form.getByTestId("oncall-time").fill(handover);
      await form.getByTestId("oncall-start").fill(yesterday);
      for (const who of ["alice", "bob"]) {
        await form.getByTestId("oncall-add-person").selectOption({ label: who });
        await form.getByTestId("oncall-add-person-button").click();
      }
      await expect(form.getByTestId("oncall-participant-1")).toContainText("bob");
      await form.getByTestId("oncall-save").click();
      await expect(toast(page, tr(m, "oncall.created"))).toBeVisible();
      await expect(page).toHaveURL(/\/oncall\/\d+$/);

      // Shift 0 ran from yesterday's handover: before today's in Berlin it is alice's still, after it bob's.
      const [made] = await schedulesOf(vigil, alice.token);
      const afterHandover = wall(Date.now(), ZONE).slice(11) >= handover;
      const [onCall, other] = afterHandover ? [bob, alice] : [alice, bob];
      expect(made!.now).toMatchObject({ userId: onCall.user.id });
      expect(made!.next).toMatchObject({ userId: other.user.id, from: made!.now!.until });
      await expect(page.getByTestId("oncall-detail-name")).toHaveText("Web team");
      await expect(page.getByTestId("oncall-detail-summary")).toContainText(tr(m, "oncall.summary.daily", { time: handover, zone: ZONE }));
      await expectNowNext(page, m, "oncall-detail", made!);
      // Two weeks of shifts, taking turns; the strip has a piece for each.
      const rows = page.getByTestId("oncall-shift-list").locator("li");
      await expect(rows).toHaveCount(15);
      await expect(page.getByTestId("oncall-timeline").locator("span")).toHaveCount(15);
      const users = await rows.evaluateAll((li) => li.map((x) => Number(x.getAttribute("data-user"))));
      for (let i = 1; i < users.length; i++) expect(users[i]).not.toBe(users[i - 1]);
      await expect(page.getByTestId("oncall-overrides-empty")).toHaveText(tr(m, "oncall.overrides.empty"));

      // The other one covers from an hour ago for three hours, typed in Berlin's wall time (the browser is in New York).
      const start = Math.floor(Date.now() / 60_000) * 60_000 - HOUR;
      const overrides = page.getByTestId("oncall-overrides");
      await overrides.getByTestId("override-to").fill(wall(start - HOUR, ZONE));
      await overrides.getByTestId("override-from").fill(wall(start, ZONE));
      await overrides.getByTestId("override-add").click();
      await expect(overrides.getByTestId("override-error-person")).toHaveText(tr(m, "oncall.overrides.errors.person"));
      await expect(overrides.getByTestId("override-error-to")).toHaveText(tr(m, "oncall.overrides.errors.order"));
      await overrides.getByTestId("override-person").selectOption({ label: other.user.username });
      await overrides.getByTestId("override-to").fill(wall(start + 3 * HOUR, ZONE));
      await overrides.getByTestId("override-add").click();
      await expect(toast(page, tr(m, "oncall.overrides.added"))).toBeVisible();
      const covered = (await schedulesOf(vigil, alice.token))[0]!;
      expect(covered.now).toEqual({ userId: other.user.id, username: other.user.username, until: start + 3 * HOUR });
      await expect(page.getByTestId("oncall-detail-now")).toHaveText(tr(m, "oncall.now", { name: other.user.username, time: await shown(page, start + 3 * HOUR) }));
      await expect(page.getByTestId("oncall-detail-now")).toHaveAttribute("data-user", String(other.user.id));
      const overrideId = (await vigil.api("GET", `/api/oncall/schedules/${made!.id}`, undefined, alice.token)).body.schedule.overrides[0].id;
      await expect(page.getByTestId(`override-row-${overrideId}`)).toContainText(other.user.username);
      await expect(page.getByTestId(`override-row-${overrideId}`)).toContainText(tr(m, "oncall.overrides.by", { name: "alice" }));
      await expect(page.getByTestId("oncall-shift-list").locator(`li[data-override="${overrideId}"]`)).toContainText(tr(m, "oncall.shifts.override"));

      // The list says the same.
      await page.getByTestId("oncall-back").click();
      await expect(page.getByTestId(`schedule-summary-${made!.id}`)).toContainText(ZONE);
      await expect(page.getByTestId(`schedule-participants-${made!.id}`)).toHaveText(`${tr(m, "oncall.rotationLabel")}: alice → bob`);
      await expectNowNext(page, m, `schedule-${made!.id}`, covered);

      // Deleted: the rotation's person again.
      await page.getByTestId(`schedule-open-${made!.id}`).click();
      await page.getByTestId(`override-delete-${overrideId}`).click();
      await expect(toast(page, tr(m, "oncall.overrides.deleted"))).toBeVisible();
      await expect(page.getByTestId("oncall-detail-now")).toHaveAttribute("data-user", String(onCall.user.id));
      await expect(page.getByTestId("oncall-overrides-empty")).toBeVisible();
    });

    test("a viewer reads schedules, overrides and shifts without any control, the page moving on by itself; the form's address says read-only", async ({ page, vigil }) => {
      test.slow(); // waits for an override to end
      const alice = await vigil.register("alice");
      const bob = await vigil.register("bob");
      const vera = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, alice.token)).status).toBe(200);
      const made = await vigil.api("POST", "/api/oncall/schedules", { name: "Ops", timeZone: ZONE, rotation: "weekly", handoverWeekday: 1, handoverTime: "10:00", startDate: "2026-01-05", participants: [alice.user.id, bob.user.id] }, alice.token);
      expect(made.status).toBe(201);
      const id = made.body.schedule.id;
      expect((await vigil.api("POST", `/api/oncall/schedules/${id}/overrides`, { userId: bob.user.id, startsAt: Date.now() + DAY, endsAt: Date.now() + 2 * DAY }, alice.token)).status).toBe(201);
      const session = (await vigil.api("POST", "/api/auth/login", { username: "vera", password: "correct horse" })).body;

      await withSession(page, session, "/oncall");
      const [s] = await schedulesOf(vigil, alice.token);
      await expectNowNext(page, m, `schedule-${id}`, s!);
      const weekday = await page.evaluate(() => new Intl.DateTimeFormat(document.documentElement.lang, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2024, 0, 1)));
      await expect(page.getByTestId(`schedule-summary-${id}`)).toContainText(tr(m, "oncall.summary.weekly", { weekday, time: "10:00", zone: ZONE }));
      for (const testId of ["oncall-add", `schedule-edit-${id}`, `schedule-delete-${id}`]) await expect(page.getByTestId(testId)).toHaveCount(0);
      await page.getByTestId(`schedule-name-${id}`).click();
      await expect(page.getByTestId("oncall-overrides").locator("[data-testid^=override-row-]")).toHaveCount(1);
      await expect(page.getByTestId("oncall-shift-list").locator("li").first()).toBeVisible();
      for (const testId of ["override-form", "oncall-detail-edit"]) await expect(page.getByTestId(testId)).toHaveCount(0);
      await expect(page.locator("[data-testid^=override-delete-]")).toHaveCount(0);

      // Vera herself covers for the next 20 seconds; the page moves on by itself when that ends.
      const ends = Date.now() + 20_000;
      expect((await vigil.api("POST", `/api/oncall/schedules/${id}/overrides`, { userId: vera.user.id, startsAt: Date.now() - HOUR, endsAt: ends }, alice.token)).status).toBe(201);
      await page.reload();
      await expect(page.getByTestId("oncall-detail-now")).toHaveAttribute("data-user", String(vera.user.id));
      await expect(page.getByTestId("oncall-detail-now")).toHaveAttribute("data-user", String(s!.now!.userId), { timeout: 45_000 });
      expect(Date.now()).toBeGreaterThanOrEqual(ends);
      await page.goto(`/oncall/edit/${id}`);
      await expect(page.getByTestId("read-only")).toBeVisible();
    });

    test("on a 390 px phone: a weekly rotation of three (moved, one removed, one added), an override, nothing scrolls sideways; delete", async ({ page, vigil }) => {
      test.slow();
      const alice = await vigil.register("alice");
      for (const who of ["bob", "carol", "dave"]) await vigil.register(who);
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, alice, "/dashboard");
      await page.getByTestId("nav-menu-button").click();
      await page.getByTestId("nav-link-oncall").click();
      await page.getByTestId("oncall-add").click();
      const form = page.getByTestId("oncall-form");
      await form.getByTestId("oncall-name").fill("A schedule with a rather long name for a phone screen");
      await form.getByTestId("oncall-zone").selectOption(ZONE);
      await form.getByTestId("oncall-rotation").selectOption("weekly");
      await form.getByTestId("oncall-weekday").selectOption("3");
      await form.getByTestId("oncall-time").fill("08:30");
      await form.getByTestId("oncall-start").fill(wall(Date.now() - 10 * DAY, ZONE).slice(0, 10));
      for (const who of ["alice", "bob", "dave", "carol"]) {
        await form.getByTestId("oncall-add-person").selectOption({ label: who });
        await form.getByTestId("oncall-add-person-button").click();
      }
      await form.getByTestId("oncall-participant-2-remove").click(); // dave
      await form.getByTestId("oncall-participant-2-up").click(); // carol before bob
      await form.getByTestId("oncall-participant-0-down").click(); // carol first
      await expect(form.getByTestId("oncall-participants").locator("li")).toHaveText([/carol/, /alice/, /bob/]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await form.getByTestId("oncall-save").click();
      await expect(toast(page, tr(m, "oncall.created"))).toBeVisible();
      const [made] = await schedulesOf(vigil, alice.token);
      const saved = (await vigil.api("GET", `/api/oncall/schedules/${made!.id}`, undefined, alice.token)).body.schedule;
      expect(saved).toMatchObject({ rotation: "weekly", handoverWeekday: 3, handoverTime: "08:30", participants: [{ username: "carol" }, { username: "alice" }, { username: "bob" }] });
      await expectNowNext(page, m, "oncall-detail", made!);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // Dave was taken out of the rotation, but may still cover: from now for a day.
      const start = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
      const overrides = page.getByTestId("oncall-overrides");
      await overrides.getByTestId("override-person").selectOption({ label: "dave" });
      await overrides.getByTestId("override-from").fill(wall(start, ZONE));
      await overrides.getByTestId("override-to").fill(wall(start + DAY, ZONE));
      await overrides.getByTestId("override-add").click();
      await expect(toast(page, tr(m, "oncall.overrides.added"))).toBeVisible();
      await expect(page.getByTestId("oncall-detail-now")).toHaveText(tr(m, "oncall.now", { name: "dave", time: await shown(page, start + DAY) }));
      const box = (await page.getByTestId("oncall-shifts").boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await page.getByTestId("oncall-back").click();
      await expect(page.getByTestId(`schedule-${made!.id}-now`)).toHaveAttribute("data-user", String((await schedulesOf(vigil, alice.token))[0]!.now!.userId));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByTestId(`schedule-delete-${made!.id}`).click();
      await expect(page.getByTestId("confirm-dialog")).toContainText("A schedule with a rather long name");
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "oncall.deleted"))).toBeVisible();
      await expect(page.getByTestId("oncall-empty")).toBeVisible();
    });
  });
}
