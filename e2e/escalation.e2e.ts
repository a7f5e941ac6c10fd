import type { Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { check, createMonitor, registerAgent, report, type Target } from "./helpers";
import { test, type Hook } from "./hook";
import { LANGUAGES, toast, tr, type Messages } from "./i18n";

// Escalation policies in the browser, both languages: a policy of two steps made through the form on /notifications'
// escalation tab (a refused input shown at its field, then fixed; the server's "already the default" shown at the
// toggle), listed in words, followed by a monitor whose page then names the policy (an agent's page: the default);
// the monitor fails against a local target and its page says when the next step pages whom, while the first step's
// channel already heard it. A viewer sees the list without edit controls; on a 390 px phone the form, the list and
// the monitor's line fit.

const MINUTE = 60_000;

/** Two webhook channels of the local receiver, and a monitor with no channel of its own checked only on demand. */
async function setup(vigil: Vigil, hook: Hook, target: Target) {
  const admin = await vigil.register("alice");
  const channel = async (name: string, path: string) =>
    (await vigil.api("POST", "/api/notifications/channels", { name, type: "webhook", config: { url: hook.url(path) } }, admin.token)).body.channel.id as number;
  const ops = await channel("Ops Slack", "/ops");
  const phone = await channel("On-call phone", "/phone");
  const monitor = await createMonitor(vigil, admin, { name: "Shop", url: target.url("/shop"), interval: 1440, retries: 0 });
  return { admin, ops, phone, monitor };
}

/** The time as the page writes it: "03:12" today, with the date on another day. */
const shownTime = (page: Page, at: number) =>
  page.evaluate((at) => {
    const lang = document.documentElement.lang;
    const sameDay = new Date(at).toDateString() === new Date().toDateString();
    const options: Intl.DateTimeFormatOptions = sameDay ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    return new Intl.DateTimeFormat(lang, options).format(at);
  }, at);

const stepWords = (m: Messages, n: number, channels: string, after: number | null) =>
  tr(m, "escalation.words.step", { n, channels }) + (after === null ? "" : ` ${tr(m, "escalation.words.after", { minutes: after })}`);

for (const [locale, m] of LANGUAGES) {
  test.describe(`escalation policies (${locale})`, () => {
    test.use({ locale });

    test("a two-step policy made through the form, listed in words, followed by a monitor that fails: its page says when the next step pages", async ({ page, vigil, hook, target }) => {
      test.slow(); // a form, two lists and a failing monitor on a busy two-core machine
      const { admin, ops, phone, monitor } = await setup(vigil, hook, target);
      const old = await vigil.api("POST", "/api/escalation-policies", { name: "Old default", steps: [{ channelIds: [ops], waitMinutes: 5 }], isDefault: true }, admin.token);
      expect(old.status).toBe(201);

      await withSession(page, admin, "/notifications?tab=escalation");
      await expect(page.getByTestId("notifications-tab-escalation")).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("notifications-tab-escalation")).toHaveText(tr(m, "notifications.tabs.escalation"));
      await expect(page.getByTestId(`policy-default-${old.body.policy.id}`)).toHaveText(tr(m, "escalation.default"));
      await expect(page.getByTestId(`policy-followers-${old.body.policy.id}`)).toHaveText(tr(m, "escalation.followers.onlyDefault"));

      await page.getByTestId("escalation-add").click();
      await expect(page).toHaveURL(/\?tab=escalation&policy=new$/);
      const form = page.getByTestId("escalation-form");
      await form.getByTestId("escalation-name").fill("Web on-call");
      await form.getByTestId(`escalation-step-0-channel-${ops}`).check();
      await form.getByTestId("escalation-add-step").click();
      // Refused here: a wait of 0 minutes, a step without a channel; nothing is sent.
      await form.getByTestId("escalation-step-0-wait").fill("0");
      await form.getByTestId("escalation-save").click();
      await expect(form.getByTestId("escalation-error-step-0-wait")).toHaveText(tr(m, "escalation.form.errors.minutesInvalid", { minutesMax: 1440 }));
      await expect(form.getByTestId("escalation-error-step-1-channels")).toHaveText(tr(m, "escalation.form.errors.noChannel"));
      await expect(form.getByTestId("escalation-fix-errors")).toHaveText(tr(m, "escalation.form.fixErrors"));
      await form.getByTestId("escalation-step-0-wait").fill("10");
      await form.getByTestId(`escalation-step-1-channel-${phone}`).check();
      await expect(form.getByTestId("escalation-error-step-0-wait")).toHaveCount(0);
      await form.getByTestId("escalation-repeat-every").fill("30");
      await form.getByTestId("escalation-repeat-limit").fill("3");
      await form.getByTestId(`escalation-monitors-option-${monitor}`).check();
      await expect(form.getByTestId(`escalation-monitors-selected-${monitor}`)).toContainText("Shop");
      // Refused by the server: another policy is the default already; said at the toggle, in the page's language.
      await form.getByTestId("escalation-default").check();
      await form.getByTestId("escalation-save").click();
      const taken = tr(m, "escalation.form.errors.defaultTaken", { policy: "Old default" });
      await expect(form.getByTestId("escalation-error-default")).toHaveText(taken);
      await expect(form.getByTestId("escalation-form-error")).toHaveText(taken);
      await form.getByTestId("escalation-default").uncheck();
      await form.getByTestId("escalation-save").click();
      await expect(toast(page, tr(m, "escalation.created"))).toBeVisible();
      await expect(page).toHaveURL(/\?tab=escalation$/);

      const policies = (await vigil.api("GET", "/api/escalation-policies", undefined, admin.token)).body.policies;
      const made = policies.find((p: { name: string }) => p.name === "Web on-call");
      expect(made).toMatchObject({ steps: [{ channelIds: [ops], waitMinutes: 10 }, { channelIds: [phone] }], repeatEveryMinutes: 30, repeatLimit: 3, isDefault: false, monitorIds: [monitor] });
      const row = page.getByTestId(`policy-row-${made.id}`);
      await expect(row.getByTestId(`policy-steps-${made.id}-1`)).toHaveText(stepWords(m, 1, "Ops Slack", 10));
      await expect(row.getByTestId(`policy-steps-${made.id}-2`)).toHaveText(stepWords(m, 2, "On-call phone", null) + tr(m, "escalation.words.again_other", { minutes: 30, count: 3 }));
      await expect(row.getByTestId(`policy-followers-${made.id}`)).toHaveText(`${tr(m, "escalation.followers.monitors")}: Shop`);
      await expect(row.getByTestId(`policy-default-${made.id}`)).toHaveCount(0);

      // The monitor's page names the policy and why; nothing is open yet.
      await page.goto(`/monitors/${monitor}`);
      const line = page.getByTestId("escalation-line");
      await expect(line.getByTestId("escalation-policy")).toHaveText("Web on-call");
      await expect(line.getByTestId("escalation-policy")).toHaveAttribute("data-source", "monitor");
      await expect(line).toContainText(tr(m, "escalation.line.via.monitor"));
      await expect(line.getByTestId("escalation-next")).toHaveCount(0);

      // It fails: step 1 pages Ops Slack at once (the monitor has no channel of its own), and the page says step 2's time.
      target.set("/shop", 500);
      expect((await check(vigil, admin, monitor)).status).toBe(200);
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "down");
      const next = line.getByTestId("escalation-next");
      await expect(next).toHaveAttribute("data-state", "next", { timeout: 10_000 });
      const escalation = (await vigil.api("GET", `/api/monitors/${monitor}/escalation`, undefined, admin.token)).body.escalation;
      expect(escalation.problems).toEqual([{ condition: "down", raisedAt: expect.any(Number), firedStep: 0, next: { step: 1, repeat: 0, at: escalation.problems[0].raisedAt + 10 * MINUTE, channelIds: [phone], people: [] } }]);
      await expect(next).toHaveText(tr(m, "escalation.line.willEscalate", { channels: "On-call phone", time: await shownTime(page, escalation.problems[0].next.at) }));
      await expect.poll(() => hook.received.filter((r) => r.path === "/ops").length).toBe(1);
      expect(hook.received.filter((r) => r.path === "/phone")).toHaveLength(0);

      await line.getByTestId("escalation-policy").click();
      await expect(page).toHaveURL(/\/notifications\?tab=escalation$/);

      // An agent follows the default policy; its page says so.
      const agent = await registerAgent(vigil, admin, "web-1");
      await report(vigil, agent, "web-1");
      await page.goto(`/agents/${agent.id}`);
      await expect(page.getByTestId("escalation-policy")).toHaveText("Old default");
      await expect(page.getByTestId("escalation-line")).toContainText(tr(m, "escalation.line.via.default"));
    });

    test("a viewer sees the policies in words without edit controls; the form's address shows the list", async ({ page, vigil, hook, target }) => {
      const { admin, ops, phone, monitor } = await setup(vigil, hook, target);
      const group = (await vigil.api("POST", "/api/monitors", { name: "Web", type: "group" }, admin.token)).body.monitor.id;
      const made = await vigil.api("POST", "/api/escalation-policies", { name: "Web on-call", steps: [{ channelIds: [ops], waitMinutes: 15 }, { channelIds: [ops, phone], waitMinutes: 5 }], groupIds: [group], tags: ["shop"] }, admin.token);
      expect(made.status).toBe(201);
      expect((await vigil.api("PUT", `/api/monitors/${monitor}`, { parentId: group }, admin.token)).status).toBe(200);
      const vera = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
      const session = (await vigil.api("POST", "/api/auth/login", { username: "vera", password: "correct horse" })).body;

      await withSession(page, session, "/notifications?tab=escalation");
      const id = made.body.policy.id;
      await expect(page.getByTestId(`policy-steps-${id}-1`)).toHaveText(stepWords(m, 1, "Ops Slack", 15));
      await expect(page.getByTestId(`policy-steps-${id}-2`)).toHaveText(stepWords(m, 2, `Ops Slack${tr(m, "escalation.words.separator")}On-call phone`, null));
      await expect(page.getByTestId(`policy-followers-${id}`)).toContainText(`${tr(m, "escalation.followers.groups")}: Web`);
      await expect(page.getByTestId(`policy-followers-${id}`).getByTestId("tag")).toHaveText("shop");
      for (const testId of ["escalation-add", `policy-edit-${id}`, `policy-delete-${id}`]) await expect(page.getByTestId(testId)).toHaveCount(0);
      await page.goto(`/notifications?tab=escalation&policy=${id}`);
      await expect(page.getByTestId(`policy-row-${id}`)).toBeVisible();
      await expect(page.getByTestId("escalation-form")).toHaveCount(0);

      // The member's page: the group's policy.
      await page.goto(`/monitors/${monitor}`);
      await expect(page.getByTestId("escalation-policy")).toHaveAttribute("data-source", "group");
      await expect(page.getByTestId("escalation-line")).toContainText(tr(m, "escalation.line.via.group", { name: "Web" }));
    });

    test("on a 390 px phone: the form's steps move and go, the list and the monitor's line fit; delete through the dialog", async ({ page, vigil, hook, target }) => {
      const { admin, ops, phone, monitor } = await setup(vigil, hook, target);
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, admin, "/notifications?tab=escalation&policy=new");
      const form = page.getByTestId("escalation-form");
      await form.getByTestId("escalation-name").fill("Phone policy");
      await form.getByTestId(`escalation-step-0-channel-${ops}`).check();
      await form.getByTestId("escalation-add-step").click();
      await form.getByTestId(`escalation-step-1-channel-${phone}`).check();
      await form.getByTestId("escalation-add-step").click();
      await expect(form.locator("[data-testid^=escalation-step-][data-testid$=-remove]")).toHaveCount(3);
      await form.getByTestId("escalation-step-2-remove").click();
      await form.getByTestId("escalation-step-1-up").click(); // the phone first now
      await expect(form.getByTestId(`escalation-step-0-channel-${phone}`)).toBeChecked();
      await form.getByTestId("escalation-step-0-wait").fill("20");
      await form.getByTestId("escalation-tags").locator("input").fill("shop,");
      await expect(form.getByTestId("escalation-tags").getByTestId("tag")).toHaveAttribute("data-tag", "shop");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await form.getByTestId("escalation-save").click();
      await expect(toast(page, tr(m, "escalation.created"))).toBeVisible();

      const made = (await vigil.api("GET", "/api/escalation-policies", undefined, admin.token)).body.policies[0];
      expect(made).toMatchObject({ name: "Phone policy", steps: [{ channelIds: [phone], waitMinutes: 20 }, { channelIds: [ops] }], tags: ["shop"] });
      await expect(page.getByTestId(`policy-steps-${made.id}-1`)).toHaveText(stepWords(m, 1, "On-call phone", 20));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      expect((await vigil.api("PUT", `/api/monitors/${monitor}`, { tags: ["shop"] }, admin.token)).status).toBe(200);
      await page.goto(`/monitors/${monitor}`);
      await expect(page.getByTestId("escalation-line")).toContainText(tr(m, "escalation.line.via.tag", { name: "shop" }));
      const box = (await page.getByTestId("escalation-line").boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);

      await page.goto("/notifications?tab=escalation");
      await page.getByTestId(`policy-delete-${made.id}`).click();
      await expect(page.getByTestId("confirm-dialog")).toContainText("Phone policy");
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "escalation.deleted"))).toBeVisible();
      await expect(page.getByTestId("escalation-empty")).toHaveText(tr(m, "escalation.empty"));
      await page.goto(`/monitors/${monitor}`);
      await expect(page.getByTestId("escalation-none")).toHaveText(tr(m, "escalation.line.none"));
    });
  });
}
