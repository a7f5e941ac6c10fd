import { createHmac } from "node:crypto";
import { expect, withSession } from "./fixtures";
import { createMonitor, registerAgent } from "./helpers";
import { test } from "./hook";
import { LANGUAGES, tr, toast } from "./i18n";

// The /notifications screen in both languages: every tab against the real server, channels sending to a local webhook
// receiver (its requests are read back, signature included), settings read back through the API after saving.

for (const [locale, m] of LANGUAGES) {
  test.describe(`notifications (${locale})`, () => {
    test.use({ locale });

    test("channels: add with checks, send a signed test, read the log, edit with masked secret, disable, delete", async ({ page, vigil, hook }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/notifications");
      await expect(page.getByTestId("notifications-tab-channels")).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("channels-empty")).toHaveText(tr(m, "notifications.channels.empty"));

      // Empty form: the spec's messages under the fields, nothing sent.
      await page.getByTestId("channels-add").click();
      const form = page.getByTestId("channel-form");
      await page.getByTestId("channel-save").click();
      await expect(form.getByTestId("channel-error-name")).toHaveText(tr(m, "notifications.channelForm.nameRequired"));
      await expect(form.getByTestId("channel-error-botToken")).toHaveText(tr(m, "notifications.channelForm.botTokenRequired"));
      await expect(form.getByTestId("channel-error-chatId")).toHaveText(tr(m, "notifications.channelForm.chatIdRequired"));
      await form.getByTestId("channel-field-botToken").fill("12345");
      await expect(form.getByTestId("channel-error-botToken")).toHaveText(tr(m, "notifications.channelForm.botTokenInvalid"));

      // Each type shows only its own fields.
      await form.getByTestId("channel-field-type").selectOption("resend");
      for (const field of ["apiKey", "from", "to"]) await expect(form.getByTestId(`channel-field-${field}`)).toBeVisible();
      await expect(form.getByTestId("channel-field-botToken")).toHaveCount(0);
      await form.getByTestId("channel-field-from").fill("not an address");
      await form.getByTestId("channel-field-to").fill("ops@example.com, nope");
      await expect(form.getByTestId("channel-error-apiKey")).toHaveText(tr(m, "notifications.channelForm.apiKeyRequired"));
      await expect(form.getByTestId("channel-error-from")).toHaveText(tr(m, "notifications.channelForm.senderInvalid"));
      await expect(form.getByTestId("channel-error-to")).toHaveText(tr(m, "notifications.channelForm.recipientInvalid"));

      await form.getByTestId("channel-field-type").selectOption("webhook");
      await expect(form.getByTestId("channel-field-apiKey")).toHaveCount(0);
      await form.getByTestId("channel-field-name").fill("Ops hook");
      await form.getByTestId("channel-field-url").fill("ftp://example.com/hook");
      await expect(form.getByTestId("channel-error-url")).toHaveText(tr(m, "notifications.channelForm.webhookUrlInvalid"));
      expect((await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels).toEqual([]);

      await form.getByTestId("channel-field-url").fill(hook.url("/ops"));
      await form.getByTestId("channel-field-secret").fill("s3cret-signing-key");
      await page.getByTestId("channel-save").click();
      await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();
      await expect(page.getByTestId("form-dialog")).toHaveCount(0);
      const [channel] = (await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels;
      expect(channel).toMatchObject({ name: "Ops hook", type: "webhook", enabled: true });
      const row = page.getByTestId(`channel-row-${channel.id}`);
      await expect(row.getByTestId(`channel-name-${channel.id}`)).toHaveText("Ops hook");
      await expect(row.getByTestId(`channel-health-${channel.id}`)).toHaveAttribute("data-health", "idle");

      // Send test: the receiver gets a signed request; the row turns "working"; the log has the line.
      await row.getByTestId(`channel-test-${channel.id}`).click();
      await expect(toast(page, tr(m, "notifications.channels.testSent", { name: "Ops hook" }))).toBeVisible();
      expect(hook.received).toHaveLength(1);
      const sent = hook.received[0];
      expect(sent.path).toBe("/ops");
      expect(sent.headers["x-vigil-signature"]).toBe(`sha256=${createHmac("sha256", "s3cret-signing-key").update(sent.body).digest("hex")}`);
      // Messages are in the instance language (zh-CN by default), whatever the browser's.
      expect(JSON.parse(sent.body)).toMatchObject({ lang: "zh-CN" });
      await expect(row.getByTestId(`channel-health-${channel.id}`)).toHaveAttribute("data-health", "working");
      await row.getByTestId(`channel-log-toggle-${channel.id}`).click();
      const log = row.getByTestId(`channel-log-${channel.id}`);
      await expect(log.locator("[data-testid^=delivery-status-]")).toHaveAttribute("data-status", "sent");
      await expect(log).toContainText(tr(m, "notifications.events.test"));
      await expect(log).toContainText(tr(m, "notifications.log.sent"));

      // Edit: the secret comes back masked, left alone it is kept; the new name is saved.
      await row.getByTestId(`channel-edit-${channel.id}`).click();
      const secret = form.getByTestId("channel-field-secret");
      await expect(secret).not.toHaveValue("s3cret-signing-key");
      await expect(secret).not.toHaveValue("");
      await form.getByTestId("channel-field-name").fill("Ops hook 2");
      await page.getByTestId("channel-save").click();
      await expect(toast(page, tr(m, "notifications.channelUpdated"))).toBeVisible();
      await expect(row.getByTestId(`channel-name-${channel.id}`)).toHaveText("Ops hook 2");
      await row.getByTestId(`channel-test-${channel.id}`).click();
      await expect.poll(() => hook.received.length).toBe(2);
      const second = hook.received[1];
      expect(second.headers["x-vigil-signature"]).toBe(`sha256=${createHmac("sha256", "s3cret-signing-key").update(second.body).digest("hex")}`);

      // Disable: the switch, its toast, the grey badge; the server has it.
      await row.getByTestId(`channel-enabled-${channel.id}`).uncheck();
      await expect(toast(page, tr(m, "notifications.channels.enabledOff", { name: "Ops hook 2" }))).toBeVisible();
      await expect(row.getByTestId(`channel-health-${channel.id}`)).toHaveAttribute("data-health", "disabled");
      expect((await vigil.api("GET", `/api/notifications/channels/${channel.id}`, undefined, admin.token)).body.channel.enabled).toBe(false);

      // Delete, after a confirmation naming it.
      await row.getByTestId(`channel-delete-${channel.id}`).click();
      const dialog = page.getByTestId("confirm-dialog");
      await expect(dialog).toContainText(tr(m, "notifications.confirmDelete.message", { name: "Ops hook 2" }));
      await expect(dialog.getByTestId("confirm-dialog-confirm")).toHaveText(tr(m, "notifications.confirmDelete.confirm"));
      await dialog.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "notifications.deleted"))).toBeVisible();
      await expect(page.getByTestId("channels-empty")).toBeVisible();
      expect((await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels).toEqual([]);
    });

    test("a chat provider's URL is checked by its shape, whatever the host", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/notifications?tab=channels");
      await page.getByTestId("channels-add").click();
      const form = page.getByTestId("channel-form");
      await form.getByTestId("channel-field-name").fill("Ops robot");
      await form.getByTestId("channel-field-type").selectOption("dingtalk");
      // A Slack URL is no DingTalk robot: refused under the field, nothing stored.
      await form.getByTestId("channel-field-url").fill("https://hooks.slack.com/services/T0/B0/abc");
      await page.getByTestId("channel-save").click();
      await expect(form.getByTestId("channel-error-url")).toHaveText(tr(m, "notifications.channelForm.webhookUrlShape.dingtalk"));
      expect((await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels).toEqual([]);
      // The robot's path through a relay host is accepted.
      await form.getByTestId("channel-field-url").fill("https://relay.example/robot/send?access_token=abc");
      await expect(form.getByTestId("channel-error-url")).toHaveCount(0);
      await page.getByTestId("channel-save").click();
      await expect(form).toHaveCount(0);
      const [stored] = (await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels;
      expect(stored).toMatchObject({ name: "Ops robot", type: "dingtalk" });
    });

    test("a failed test send shows on the list at once (error and when); sends that keep failing mark it failing", async ({ page, vigil, hook }) => {
      const admin = await vigil.register("alice");
      const created = await vigil.api("POST", "/api/notifications/channels", { name: "Broken", type: "webhook", config: { url: hook.url("/fail") } }, admin.token);
      const id = created.body.channel.id;
      await withSession(page, admin, "/notifications?tab=channels");
      const row = page.getByTestId(`channel-row-${id}`);
      for (let i = 0; i < 3; i++) {
        await row.getByTestId(`channel-test-${id}`).click();
        await expect(toast(page, tr(m, "notifications.channels.testFailed")).first()).toBeVisible();
        await expect.poll(() => hook.received.length).toBe(i + 1);
        await expect(row.getByTestId(`channel-test-${id}`)).toBeEnabled();
        if (i === 0) {
          // One failure: stated with its error and time, not "nothing sent yet".
          await expect(row.getByTestId(`channel-health-${id}`)).toHaveAttribute("data-health", "failed");
          await expect(row.getByTestId(`channel-health-${id}`)).toHaveText(tr(m, "notifications.channels.failed"));
          await expect(row.getByTestId(`channel-last-error-${id}`)).toContainText(tr(m, "notifications.channels.lastFailure"));
          await expect(row.getByTestId(`channel-last-error-${id}`)).toContainText("500");
          await expect(row.getByTestId(`channel-last-error-${id}`).locator("time")).toBeVisible();
          await expect(row).not.toContainText(tr(m, "notifications.channels.nothingSent"));
        }
      }
      await expect(row.getByTestId(`channel-health-${id}`)).toHaveAttribute("data-health", "failing");
      await expect(row.getByTestId(`channel-health-${id}`)).toContainText(tr(m, "notifications.channels.failing"));
      await expect(row.getByTestId(`channel-last-error-${id}`)).toContainText("500");
      await row.getByTestId(`channel-log-toggle-${id}`).click();
      const statuses = row.getByTestId(`channel-log-${id}`).locator("[data-testid^=delivery-status-]");
      await expect(statuses).toHaveCount(3);
      for (const status of await statuses.all()) await expect(status).toHaveAttribute("data-status", "failed");
      await expect(row.getByTestId(`channel-log-${id}`).locator("[data-testid^=delivery-error-]").first()).toContainText("500");
    });

    test("tabs say how they differ; language & time zone: how alerts work, message language and time zone; templates need a channel first", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/notifications");
      // Seven tabs, no two with nearly one name ("Settings" beside "Global settings" was): none holds another's name.
      const names = ["channels", "escalation", "settings", "templates", "global", "monitors", "agents"].map((tab) => tr(m, `notifications.tabs.${tab}`));
      await expect(page.getByTestId("notifications-tabs").getByRole("link")).toHaveText(names);
      for (const a of names) for (const b of names) if (a !== b) expect(a.toLowerCase()).not.toContain(b.toLowerCase());
      await page.getByTestId("notifications-tab-settings").click();
      await expect(page).toHaveURL(/\?tab=settings$/);
      await expect(page.getByTestId("notifications-tab-settings")).toHaveText(tr(m, "notifications.tabs.settings"));
      await expect(page.getByTestId("settings-how")).toContainText(tr(m, "notifications.settings.how.edge"));
      await expect(page.getByTestId("settings-language")).toHaveValue("zh-CN");
      await page.getByTestId("settings-language").selectOption("en-US");
      await page.getByTestId("settings-timezone").fill("Mars/Olympus");
      await page.getByTestId("settings-save").click();
      await expect(page.getByTestId("settings-timezone-error")).toHaveText(tr(m, "notifications.settings.timeZoneInvalid"));
      await page.getByTestId("settings-timezone").fill("Europe/Berlin");
      await page.getByTestId("settings-save").click();
      await expect(toast(page, tr(m, "notifications.settingsSaved"))).toBeVisible();
      expect((await vigil.api("GET", "/api/notifications/settings", undefined, admin.token)).body.settings).toMatchObject({ language: "en-US", timeZone: "Europe/Berlin" });
      await page.reload();
      await expect(page.getByTestId("settings-language")).toHaveValue("en-US");
      await expect(page.getByTestId("settings-timezone")).toHaveValue("Europe/Berlin");

      await page.getByTestId("notifications-tab-templates").click();
      await expect(page).toHaveURL(/\?tab=templates$/);
      await expect(page.getByTestId("templates-empty")).toContainText(tr(m, "notifications.templates.noChannels"));
      await page.getByTestId("templates-empty").getByRole("link").click();
      await expect(page).toHaveURL(/\?tab=channels$/);
    });

    test("global settings: channels, events, reminder and thresholds, checked and saved", async ({ page, vigil, hook }) => {
      const admin = await vigil.register("alice");
      const channel = (await vigil.api("POST", "/api/notifications/channels", { name: "Hook", type: "webhook", config: { url: hook.url("/a") } }, admin.token)).body.channel;
      await withSession(page, admin, "/notifications?tab=global");
      await expect(page.getByTestId("notifications-tab-global")).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("global-monitor-none-chosen")).toHaveText(tr(m, "notifications.parts.noneChosen"));
      await page.getByTestId(`global-monitor-channel-${channel.id}`).check();
      await page.getByTestId(`global-agent-channel-${channel.id}`).check();
      await expect(page.getByTestId("global-monitor-none-chosen")).toHaveCount(0);
      await page.getByTestId("global-monitor-event-recovery").uncheck();
      await expect(page.getByTestId("global-monitor-event-budget")).toBeChecked();
      await page.getByTestId("global-monitor-event-budget").uncheck();
      await page.getByTestId("global-agent-event-cpu").uncheck();
      await page.getByTestId("global-monitor-reminder").fill("99999");
      await page.getByTestId("global-agent-threshold-disk").fill("150");
      await page.getByTestId("global-save").click();
      await expect(page.getByTestId("global-monitor-reminder-error")).toHaveText(tr(m, "notifications.parts.reminderInvalid"));
      await expect(page.getByTestId("global-agent-threshold-disk-error")).toHaveText(tr(m, "notifications.parts.thresholdInvalid"));
      await expect(page.getByTestId("global-fix-errors")).toBeVisible();
      await page.getByTestId("global-monitor-reminder").fill("60");
      await page.getByTestId("global-agent-threshold-disk").fill("85");
      await expect(page.getByTestId("global-fix-errors")).toHaveCount(0);
      await page.getByTestId("global-save").click();
      await expect(toast(page, tr(m, "notifications.settingsSaved"))).toBeVisible();
      const saved = (await vigil.api("GET", "/api/notifications/settings", undefined, admin.token)).body.settings;
      expect(saved.monitor).toEqual({ enabled: true, channelIds: [channel.id], events: { down: true, recovery: false, budget: false }, reminderMinutes: 60 });
      expect(saved.agent).toMatchObject({ enabled: true, channelIds: [channel.id], events: { offline: true, online: true, cpu: false, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 85 } });
      await page.reload();
      await expect(page.getByTestId(`global-monitor-channel-${channel.id}`)).toBeChecked();
      await expect(page.getByTestId("global-agent-threshold-disk")).toHaveValue("85");
    });

    test("a monitor's own settings: from its page, saved as an override, back to the global ones", async ({ page, vigil, hook, target }) => {
      const admin = await vigil.register("alice");
      const channel = (await vigil.api("POST", "/api/notifications/channels", { name: "Pager", type: "webhook", config: { url: hook.url("/p") } }, admin.token)).body.channel;
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop"), active: false });
      const blog = await createMonitor(vigil, admin, { name: "Blog", url: target.url("/blog"), active: false });

      await withSession(page, admin, `/monitors/${shop}`);
      await page.getByTestId("notifications-link").click();
      await expect(page).toHaveURL(new RegExp(`/notifications\\?tab=monitors&monitor=${shop}$`));
      const editor = page.getByTestId("target-editor");
      await expect(editor).toContainText(tr(m, "notifications.targets.editorTitle", { name: "Shop API" }));
      await expect(editor.getByTestId("target-state")).toHaveAttribute("data-override", "false");
      await expect(page.getByTestId(`target-mode-${shop}`)).toHaveAttribute("data-mode", "global");
      await expect(editor.getByTestId("target-use-global")).toHaveCount(0);

      await editor.getByTestId(`target-channel-${channel.id}`).check();
      await editor.getByTestId("target-reminder").fill("30");
      await editor.getByTestId("target-save").click();
      await expect(toast(page, tr(m, "notifications.settingsSaved"))).toBeVisible();
      await expect(editor.getByTestId("target-state")).toHaveAttribute("data-override", "true");
      await expect(editor.getByTestId("target-state")).toHaveText(tr(m, "notifications.targets.stateOwn"));
      await expect(page.getByTestId(`target-mode-${shop}`)).toHaveAttribute("data-mode", "own");
      await expect(page.getByTestId(`target-mode-${blog}`)).toHaveAttribute("data-mode", "global");
      expect((await vigil.api("GET", `/api/notifications/settings/monitors/${shop}`, undefined, admin.token)).body).toMatchObject({
        override: true,
        settings: { channelIds: [channel.id], reminderMinutes: 30 },
      });

      // Search narrows the list; another monitor opens from it.
      await page.getByTestId("targets-search").fill("blo");
      await expect(page.getByTestId(`target-item-${shop}`)).toHaveCount(0);
      await page.getByTestId(`target-item-${blog}`).click();
      await expect(page).toHaveURL(new RegExp(`monitor=${blog}$`));
      await expect(editor).toContainText(tr(m, "notifications.targets.editorTitle", { name: "Blog" }));
      await page.getByTestId("targets-search").fill("zzz");
      await expect(page.getByTestId("targets-no-match")).toHaveText(tr(m, "notifications.targets.noMatch", { query: "zzz" }));

      // Back to the global settings.
      await page.goto(`/notifications?tab=monitors&monitor=${shop}`);
      await editor.getByTestId("target-use-global").click();
      await expect(toast(page, tr(m, "notifications.targets.usesGlobalNow", { name: "Shop API" }))).toBeVisible();
      await expect(editor.getByTestId("target-state")).toHaveAttribute("data-override", "false");
      await expect(page.getByTestId(`target-mode-${shop}`)).toHaveAttribute("data-mode", "global");
      expect((await vigil.api("GET", `/api/notifications/settings/monitors/${shop}`, undefined, admin.token)).body.override).toBe(false);

      // The edit page links here too.
      await page.goto(`/monitors/edit/${blog}`);
      await page.getByTestId("notifications-link").click();
      await expect(page).toHaveURL(new RegExp(`tab=monitors&monitor=${blog}$`));
    });

    test("an agent's own thresholds: from its page, checked, saved, back to the global ones", async ({ page, vigil, hook }) => {
      const admin = await vigil.register("alice");
      const channel = (await vigil.api("POST", "/api/notifications/channels", { name: "Ops", type: "webhook", config: { url: hook.url("/o") } }, admin.token)).body.channel;
      const agent = await registerAgent(vigil, admin, "db-1");
      await withSession(page, admin, `/agents/${agent.id}`);
      await page.getByTestId("notifications-link").click();
      await expect(page).toHaveURL(new RegExp(`/notifications\\?tab=agents&agent=${agent.id}$`));
      await expect(page.getByTestId("notifications-tab-agents")).toHaveAttribute("aria-current", "page");
      const editor = page.getByTestId("target-editor");
      await expect(editor.getByTestId("target-threshold-cpu")).toHaveValue("90");
      await editor.getByTestId("target-threshold-cpu").fill("0");
      await editor.getByTestId("target-save").click();
      await expect(editor.getByTestId("target-threshold-cpu-error")).toHaveText(tr(m, "notifications.parts.thresholdInvalid"));
      await editor.getByTestId("target-threshold-cpu").fill("75");
      await editor.getByTestId(`target-channel-${channel.id}`).check();
      await editor.getByTestId("target-event-online").uncheck();
      // Containers to watch: the restart window is checked like the thresholds.
      await expect(editor.getByTestId("target-event-container")).toBeChecked();
      await editor.getByTestId("target-watch").fill("web, db");
      await editor.getByTestId("target-restart-minutes").fill("0");
      await editor.getByTestId("target-save").click();
      await expect(editor.getByTestId("target-restart-minutes-error")).toHaveText(tr(m, "notifications.parts.restartMinutesInvalid"));
      await editor.getByTestId("target-restart-minutes").fill("15");
      await editor.getByTestId("target-restarts").fill("4");
      await editor.getByTestId("target-save").click();
      await expect(toast(page, tr(m, "notifications.settingsSaved"))).toBeVisible();
      await expect(page.getByTestId(`target-mode-${agent.id}`)).toHaveAttribute("data-mode", "own");
      expect((await vigil.api("GET", `/api/notifications/settings/agents/${agent.id}`, undefined, admin.token)).body).toMatchObject({
        override: true,
        settings: { channelIds: [channel.id], events: { online: false, container: true }, thresholds: { cpu: 75 }, containers: { watch: ["web", "db"], restarts: 4, restartMinutes: 15 } },
      });
      await editor.getByTestId("target-use-global").click();
      await expect(editor.getByTestId("target-threshold-cpu")).toHaveValue("90");
      await expect(page.getByTestId(`target-mode-${agent.id}`)).toHaveAttribute("data-mode", "global");

      await page.goto(`/agents/edit/${agent.id}`);
      await page.getByTestId("notifications-link").click();
      await expect(page).toHaveURL(new RegExp(`tab=agents&agent=${agent.id}$`));
    });

    test("on a phone (390 px) every tab fits the width and the channel form scrolls", async ({ page, vigil, hook }) => {
      await page.setViewportSize({ width: 390, height: 800 });
      const admin = await vigil.register("alice");
      await vigil.api("POST", "/api/notifications/channels", { name: "A channel with a rather long name for a phone", type: "webhook", config: { url: hook.url("/x") } }, admin.token);
      await registerAgent(vigil, admin, "web-1");
      await withSession(page, admin, "/notifications");
      for (const tab of ["channels", "settings", "templates", "global", "monitors", "agents"]) {
        await page.goto(`/notifications?tab=${tab}`);
        await expect(page.getByTestId(`notifications-panel-${tab}`)).toBeVisible();
        await expect(page.getByTestId(`notifications-panel-${tab}`).locator("[data-testid$=-loading]")).toHaveCount(0);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `tab ${tab} overflows`).toBeLessThanOrEqual(0);
      }
      await page.goto("/notifications");
      await page.getByTestId("channels-add").click();
      await page.getByTestId("channel-field-type").selectOption("resend");
      await page.getByTestId("channel-save").scrollIntoViewIfNeeded();
      await expect(page.getByTestId("channel-save")).toBeInViewport();
    });
  });
}
