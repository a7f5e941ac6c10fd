import { check, createMonitor } from "./helpers";
import { expect, withSession, type Vigil } from "./fixtures";
import { test, type Hook } from "./hook";
import { LANGUAGES, toast, tr, type Messages } from "./i18n";

// Escalation to people, in the built executable on a short minute (VIGIL_TEST_MINUTE_MS: a minute of the settings is
// 3 s, the clocks untouched), both languages: bob and carol keep a personal webhook each (their contact channels); a
// daily schedule has bob on call today. A policy made through the form pages "whoever is on call in Primary" first,
// carol after 5 minutes, the Ops channel 10 minutes later. The monitor fails: bob hears step 1 (paged as on call in
// Primary), the monitor's page says carol is next, carol hears step 2; alice acknowledges from the monitor's page, and
// step 3 never comes although its time passes. On a 390 px phone the pickers fit.

const MINUTE_MS = 3_000;

interface Received {
  events: { facts: { escalationStep?: number; escalationPeople?: string[] } }[];
}

const pages = (hook: Hook, path: string) => hook.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Received);
const steps = (hook: Hook, path: string) => pages(hook, path).map((r) => r.events[0]!.facts.escalationStep ?? 0);

async function setup(vigil: Vigil, hook: Hook, target: { url(path: string): string }) {
  const alice = await vigil.register("alice");
  const bob = await vigil.register("bob");
  const carol = await vigil.register("carol");
  const ops = (await vigil.api("POST", "/api/notifications/channels", { name: "Ops", type: "webhook", config: { url: hook.url("/ops") } }, alice.token)).body.channel.id as number;
  for (const [who, path] of [[bob, "/bob"], [carol, "/carol"]] as const) {
    const own = await vigil.api("POST", "/api/me/channels", { name: "My hook", type: "webhook", config: { url: hook.url(path) } }, who.token);
    expect(own.status).toBe(201);
  }
  const today = new Date().toISOString().slice(0, 10);
  const schedule = await vigil.api("POST", "/api/oncall/schedules", { name: "Primary", timeZone: "UTC", rotation: "daily", handoverTime: "00:00", startDate: today, participants: [bob.user.id, carol.user.id] }, alice.token);
  expect(schedule.status).toBe(201);
  expect(schedule.body.schedule.now).toMatchObject({ username: "bob" });
  const monitor = await createMonitor(vigil, alice, { name: "Shop", url: target.url("/shop"), interval: 1440, retries: 0 });
  return { alice, bob, carol, ops, schedule: schedule.body.schedule.id as number, monitor };
}

const words = (m: Messages, n: number, whom: string, after: number | null) =>
  tr(m, "escalation.words.step", { n, channels: whom }) + (after === null ? "" : ` ${tr(m, "escalation.words.after", { minutes: after })}`);

for (const [locale, m] of LANGUAGES) {
  test.describe(`escalation to people on call (${locale})`, () => {
    test.use({ locale, serverEnv: { VIGIL_TEST_MINUTE_MS: String(MINUTE_MS) } });

    test("whoever is on call, then a person, then a channel: paged in turn on the built server; acknowledged before the third step, which never comes", async ({ page, vigil, hook, target }) => {
      test.setTimeout(180_000); // a form, then steps on the server's clock (about 50 s), on a busy machine
      const { alice, carol, ops, schedule, monitor } = await setup(vigil, hook, target);

      await withSession(page, alice, "/notifications?tab=escalation&policy=new");
      const form = page.getByTestId("escalation-form");
      await form.getByTestId("escalation-name").fill("People first");
      await expect(form.getByTestId(`escalation-step-0-schedule-${schedule}`).locator("xpath=..")).toContainText(tr(m, "escalation.form.onCallNow", { name: "bob" }));
      await form.getByTestId(`escalation-step-0-schedule-${schedule}`).check();
      await form.getByTestId("escalation-add-step").click();
      await form.getByTestId("escalation-step-0-wait").fill("5");
      await form.getByTestId(`escalation-step-1-person-${carol.user.id}`).check();
      await form.getByTestId("escalation-add-step").click(); // step 2 is not the last now: it has a wait
      await form.getByTestId("escalation-step-1-wait").fill("10");
      await form.getByTestId(`escalation-step-2-channel-${ops}`).check();
      await form.getByTestId(`escalation-monitors-option-${monitor}`).check();
      await form.getByTestId("escalation-save").click();
      await expect(toast(page, tr(m, "escalation.created"))).toBeVisible();
      const policy = (await vigil.api("GET", "/api/escalation-policies", undefined, alice.token)).body.policies[0];
      expect(policy.steps).toEqual([
        { channelIds: [], userIds: [], scheduleIds: [schedule], waitMinutes: 5 },
        { channelIds: [], userIds: [carol.user.id], scheduleIds: [], waitMinutes: 10 },
        { channelIds: [ops], userIds: [], scheduleIds: [], waitMinutes: 10 },
      ]);
      await expect(page.getByTestId(`policy-steps-${policy.id}-1`)).toHaveText(words(m, 1, tr(m, "escalation.words.onCall", { schedule: "Primary" }), 5));
      await expect(page.getByTestId(`policy-steps-${policy.id}-2`)).toHaveText(words(m, 2, "carol", 10));
      await expect(page.getByTestId(`policy-steps-${policy.id}-3`)).toHaveText(words(m, 3, "Ops", null));

      // It fails: bob, on call, is paged at once through his own channel; the page says carol comes next.
      target.set("/shop", 500);
      const raisedNear = Date.now();
      expect((await check(vigil, alice, monitor)).status).toBe(200);
      await expect.poll(() => steps(hook, "/bob"), { timeout: 10_000 }).toEqual([1]);
      expect(pages(hook, "/bob")[0]!.events[0]!.facts.escalationPeople).toEqual(["bob (Primary)"]);
      await page.goto(`/monitors/${monitor}`);
      const next = page.getByTestId("escalation-next");
      await expect(next).toContainText("carol"); // step 2 is 15 s after the alert
      await expect(page.getByTestId("escalation-unreachable")).toHaveCount(0);

      // Five minutes of the server's (15 s): carol. Then alice acknowledges from the page, well before step 3 (+45 s).
      await expect.poll(() => steps(hook, "/carol"), { timeout: 30_000 }).toEqual([2]);
      const panel = page.getByTestId("open-problems");
      await panel.getByTestId("problem-ack-button").click();
      await expect(panel.getByTestId("problem-ack")).toBeVisible();
      expect(Date.now()).toBeLessThan(raisedNear + 15 * MINUTE_MS - 2_000); // acknowledged before step 3 was due

      // Step 3's time passes with a margin: the Ops channel hears nothing, nobody is paged again.
      const step3 = raisedNear + 15 * MINUTE_MS;
      await page.waitForTimeout(Math.max(0, step3 + 3 * MINUTE_MS - Date.now()));
      expect(steps(hook, "/ops")).toEqual([]);
      expect(steps(hook, "/bob")).toEqual([1]);
      expect(steps(hook, "/carol")).toEqual([2]);
    });

    test("on a 390 px phone: the people and schedule pickers fit; a person without a contact channel is flagged on the monitor's page", async ({ page, vigil, hook, target }) => {
      const { alice, schedule, monitor } = await setup(vigil, hook, target);
      const dave = await vigil.register("dave"); // no contact channel of his own
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, alice, "/notifications?tab=escalation&policy=new");
      const form = page.getByTestId("escalation-form");
      await form.getByTestId("escalation-name").fill("Dave later");
      await form.getByTestId(`escalation-step-0-schedule-${schedule}`).check();
      await form.getByTestId("escalation-add-step").click();
      await form.getByTestId(`escalation-step-1-person-${dave.user.id}`).check();
      await form.getByTestId(`escalation-monitors-option-${monitor}`).check();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await form.getByTestId("escalation-save").click();
      await expect(toast(page, tr(m, "escalation.created"))).toBeVisible();

      target.set("/shop", 500);
      expect((await check(vigil, alice, monitor)).status).toBe(200);
      await page.goto(`/monitors/${monitor}`);
      await expect(page.getByTestId("escalation-next")).toContainText("dave", { timeout: 10_000 });
      await expect(page.getByTestId("escalation-unreachable")).toHaveText(tr(m, "escalation.line.unreachable", { name: "dave" }));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
