// The notifications section against the Kuma 2.5.3 sample: channels of every provider both have, with their
// secrets, the monitors using them and "default enabled"; what cannot come across is skipped with its reason.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Db } from "../../db/database";
import { testDb } from "../../db/test-db";
import { createNotificationStore } from "../../notifications/store";
import { notificationsSection } from "./notifications";
import { kumaManifest } from "./fixture";
import { fixtureSource, manifest, runSections, standInMonitors } from "./test-source";

let db: Db;
beforeEach(async () => {
  db = await testDb();
});
afterEach(async () => {
  await db.close();
});

const byName = <T extends { name: string }>(items: T[], name: string) => items.find((i) => i.name === name)!;

describe("Kuma notifications", () => {
  test("the plan creates every channel of a shared provider, skips Teams' retired connector, and never shows a secret", async () => {
    const source = fixtureSource();
    try {
      const plan = await notificationsSection.plan(source, { db, links: { target: () => undefined, link: () => {} }, options: { history: false } });
      expect(plan).toHaveLength(manifest.notifications.length);
      for (const n of manifest.notifications) {
        const item = byName(plan, n.name);
        expect(item.sourceId).toBe(String(n.id));
        expect(item.action).toBe(n.provider_type === "teams" ? "skip" : "create");
      }
      const teams = byName(plan, "MS Teams - Platform");
      expect(teams.notes.map((n) => n.text).join(" ")).toContain("Microsoft Teams (Workflows)");
      expect(teams.notes.map((n) => n.text).join(" ")).toContain("Workflows webhook");
      expect(byName(plan, "Ops mailbox (SMTP)").notes.map((n) => n.text).join(" ")).toContain("Default for new monitors");
      expect(byName(plan, "Incident webhook (JSON)").notes.map((n) => n.text).join(" ")).toContain("X-Api-Key");
      expect(byName(plan, "Legacy pager (form-data)").notes.map((n) => n.text).join(" ")).toContain("form data");
      const text = JSON.stringify(plan);
      for (const n of manifest.notifications) {
        for (const [field, value] of Object.entries(n.fields)) {
          if (/password|token|secret|url|key/i.test(field) && typeof value === "string" && value.length > 8) expect(text).not.toContain(value);
        }
      }
      expect(text).not.toContain("wh_live_5c2f9b7e81");
    } finally {
      source.close();
    }
  });

  test("apply makes the channels with their fields, monitors' channels as in Kuma, the default for the others; again: updated in place", async () => {
    const source = fixtureSource();
    try {
      const monitors = await standInMonitors(db, source);
      const items = await runSections(db, source, [notificationsSection]);
      const store = createNotificationStore(db);
      const channels = await Promise.all((await store.listChannels()).map((c) => store.channelForSending(c.id)));
      expect(channels).toHaveLength(8);
      const channel = (name: string) => channels.find((c) => c!.name === name)!;
      const fields = (name: string) => manifest.notifications.find((n) => n.name === name)!.fields;

      const smtp = channel("Ops mailbox (SMTP)");
      const f = fields("Ops mailbox (SMTP)");
      expect(smtp.type).toBe("smtp");
      expect(smtp.config).toEqual({ host: f.smtpHost, port: f.smtpPort, security: "none", username: f.smtpUsername, password: f.smtpPassword, from: "Uptime Kuma <alerts@northwind-shop.example>", to: [f.smtpTo, f.smtpCC] });
      expect(channel("Slack #ops-alerts").config).toEqual({ url: fields("Slack #ops-alerts").slackwebhookURL });
      expect(channel("Discord status channel").config).toEqual({ url: fields("Discord status channel").discordWebhookUrl });
      expect(channel("Telegram on-call").config).toEqual({ botToken: fields("Telegram on-call").telegramBotToken, chatId: fields("Telegram on-call").telegramChatID });
      expect(channel("Incident webhook (JSON)").config).toEqual({ url: fields("Incident webhook (JSON)").webhookURL });
      expect(channel("Legacy pager (form-data)").config).toEqual({ url: fields("Legacy pager (form-data)").webhookURL });
      const ntfy = fields("ntfy phone push");
      expect(channel("ntfy phone push").config).toEqual({ server: ntfy.ntfyserverurl, topic: ntfy.ntfytopic, token: ntfy.ntfyaccesstoken, priority: ntfy.ntfyPriority });
      const ding = manifest.notifications.find((n) => n.provider_type === "DingDing")!;
      expect(channel(ding.name)).toMatchObject({ type: "dingtalk", config: { url: ding.fields.webHookUrl, secret: ding.fields.secretKey } });
      for (const c of channels) expect(c!.enabled).toBe(true);

      // "Default enabled" → the channels of monitors without their own settings.
      const settings = await store.getSettings();
      expect(settings.monitor.channelIds).toEqual([smtp.id]);
      // Every monitor gets exactly Kuma's channels (Teams, skipped, left out).
      const imported = new Map(manifest.notifications.filter((n) => n.provider_type !== "teams").map((n) => [n.id, channel(n.name).id]));
      for (const [kumaId, monitorId] of monitors) {
        const expected = manifest.notifications.filter((n) => n.attached_to_monitors.includes(kumaId) && imported.has(n.id)).map((n) => imported.get(n.id)!);
        const effective = await store.effective("monitor", monitorId);
        expect(effective.channelIds.toSorted()).toEqual(expected.toSorted());
        // Kuma's "resend every N heartbeats while down" is a reminder every N × interval.
        const kuma = kumaManifest.monitors.find((m) => m.id === kumaId)!;
        const resend = Number(kuma.resend_interval ?? 0);
        expect(effective.reminderMinutes).toBe(resend > 0 ? Math.max(1, Math.round((resend * Number(kuma.interval)) / 60)) : 0);
        // Only monitors whose list differs from the default one, or that resend, have their own settings.
        expect((await store.getOverride("monitor", monitorId)) !== null).toBe(!(expected.length === 1 && expected[0] === smtp.id) || resend > 0);
      }
      expect(items.filter((i) => i.action === "create")).toHaveLength(8);

      // The user adds a channel of their own to a monitor; a second import keeps it and duplicates nothing.
      const mine = await store.createChannel({ name: "My hook", type: "webhook", config: { url: "https://hooks.example.com/x" } });
      const shop = monitors.get(4)!;
      const before = await store.effective("monitor", shop);
      await store.saveOverride("monitor", shop, { ...before, channelIds: [...before.channelIds, mine.id] });
      const again = await runSections(db, source, [notificationsSection]);
      expect(again.filter((i) => i.action === "update")).toHaveLength(8);
      const after = await store.listChannels();
      expect(after).toHaveLength(9);
      expect(after.map((c) => c.id).toSorted()).toEqual([...channels.map((c) => c!.id), mine.id].toSorted());
      expect((await createNotificationStore(db).effective("monitor", shop)).channelIds.toSorted()).toEqual([...before.channelIds, mine.id].toSorted());
      expect((await createNotificationStore(db).getSettings()).monitor.channelIds).toEqual([smtp.id]);
    } finally {
      source.close();
    }
  });

  test("a provider Vigil lacks and a channel failing Vigil's checks are skipped with the reason; a disabled default one stays disabled", async () => {
    const source = fixtureSource((k) => {
      k.run(`INSERT INTO notification (id, name, active, user_id, is_default, config) VALUES (20, 'LINE', 1, 1, 0, '{"type":"line","lineChannelAccessToken":"x"}')`);
      k.run(`INSERT INTO notification (id, name, active, user_id, is_default, config) VALUES (21, 'Broken TG', 1, 1, 0, '{"type":"telegram","telegramBotToken":"nope-secret-123","telegramChatID":"1"}')`);
      k.run(`INSERT INTO notification (id, name, active, user_id, is_default, config) VALUES (22, 'Gotify home', 0, 1, 1, '{"type":"gotify","gotifyserverurl":"https://gotify.example.com","gotifyapplicationToken":"AbCdEf123","gotifyPriority":8}')`);
      k.run(`INSERT INTO monitor_notification (monitor_id, notification_id) VALUES (4, 20)`);
    });
    try {
      await standInMonitors(db, source);
      const items = await runSections(db, source, [notificationsSection]);
      expect(byName(items, "LINE")).toMatchObject({ action: "skip", notes: [{ text: 'Vigil has no "line" provider: the 1 monitor(s) using it will not notify through it.' }] });
      const broken = byName(items, "Broken TG");
      expect(broken.action).toBe("skip");
      expect(broken.notes[0]!.text).toContain("Invalid Bot Token format");
      expect(JSON.stringify(items)).not.toContain("nope-secret-123");
      const store = createNotificationStore(db);
      const gotify = (await store.listChannels()).find((c) => c.name === "Gotify home")!;
      expect(gotify).toMatchObject({ type: "gotify", enabled: false });
      expect((await store.channelForSending(gotify.id))!.config).toEqual({ server: "https://gotify.example.com", token: "AbCdEf123", priority: 8 });
      expect((await store.getSettings()).monitor.channelIds).toContain(gotify.id);
    } finally {
      source.close();
    }
  });

  test("the providers added for Kuma's users come across with their fields; what Vigil needs more of is said", async () => {
    const uuid = "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d";
    const sid = `AC${"0123456789abcdef".repeat(2)}`;
    const token = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
    const secret = "a7f3c9e1b5d2846f0e3a9c7b1d5f2e8a4c6b0d9e";
    const kuma: [number, string, Record<string, unknown>][] = [
      [30, "Apprise API", { type: "apprise", appriseURL: "apprises://apprise.example.com:8443/notify-key-77?tags=devops,admin", title: "Kuma says" }],
      [31, "Apprise CLI", { type: "apprise", appriseURL: "tgram://123456789:AAEhiddenBotToken/-100123" }],
      [32, "Signal", { type: "signal", signalURL: "http://signal.example.com:8080/v2/send", signalNumber: "+4915112345678", signalRecipients: "+4917612345678, group.abc=" }],
      [33, "Signal bare", { type: "signal", signalURL: "http://signal.example.com:8080", signalNumber: "+4915112345678", signalRecipients: "+4917612345678", signalUseTemplate: true }],
      [34, "Opsgenie", { type: "Opsgenie", opsgenieApiKey: uuid, opsgenieRegion: "eu", opsgeniePriority: 2 }],
      [35, "Home Assistant", { type: "HomeAssistant", homeAssistantUrl: "http://homeassistant.local:8123/", longLivedAccessToken: "eyJhbGciOiJIUzI1NiJ9.ha-token", notificationService: "mobile_app_pixel_8" }],
      [36, "Twilio", { type: "twilio", twilioAccountSID: sid, twilioAuthToken: token, twilioApiKey: "", twilioFromNumber: "+15005550006", twilioToNumber: "+15551234567" }],
      [37, "Pushbullet", { type: "pushbullet", pushbulletAccessToken: "o.PushbulletAccessToken123" }],
      [38, "Talk", { type: "nextcloudtalk", host: "https://cloud.example.com", conversationToken: "abc123de", botSecret: secret, sendSilentUp: true, sendSilentDown: false }],
      [39, "OnCall", { type: "GrafanaOncall", GrafanaOncallURL: "https://oncall.example.com/integrations/v1/formatted_webhook/OnCallT0ken/" }],
      [40, "SendGrid", { type: "SendGrid", sendgridApiKey: "SG.sendgrid-key.abc", sendgridFromEmail: "kuma@example.com", sendgridToEmail: "ops@example.com", sendgridCcEmail: "lead@example.com", sendgridSubject: "Kuma alert" }],
      [41, "Brevo", { type: "Brevo", brevoApiKey: "xkeysib-brevo-key", brevoFromEmail: "kuma@example.com", brevoFromName: "Uptime Kuma", brevoToEmail: "ops@example.com", brevoBccEmail: "hidden@example.com" }],
    ];
    const source = fixtureSource((k) => {
      for (const [id, name, config] of kuma) {
        k.run(`INSERT INTO notification (id, name, active, user_id, is_default, config) VALUES (?, ?, 1, 1, 0, ?)`, [id, name, JSON.stringify(config)]);
      }
    });
    try {
      await standInMonitors(db, source);
      const items = await runSections(db, source, [notificationsSection]);
      const notes = (name: string) => byName(items, name).notes.map((n) => n.code);
      const store = createNotificationStore(db);
      const listed = await store.listChannels();
      const channel = async (name: string) => {
        const found = listed.find((c) => c.name === name);
        return found ? { type: found.type, config: (await store.channelForSending(found.id))!.config } : undefined;
      };

      // One apprise:// URL names an Apprise API server and a key: complete. Apprise URLs alone cannot say where the server is.
      expect(await channel("Apprise API")).toEqual({ type: "apprise", config: { server: "https://apprise.example.com:8443", key: "notify-key-77", tag: "devops,admin" } });
      expect(notes("Apprise API")).toContain("notification.dropped.title");
      expect(byName(items, "Apprise CLI").action).toBe("skip");
      expect(byName(items, "Apprise CLI").notes.map((n) => n.text)).toEqual([
        "Its settings do not pass Vigil's apprise checks: Server URL is required.",
        "Kuma ran the apprise command on its own host; Vigil sends through an Apprise API server (the caronc/apprise container): add an Apprise channel in Vigil with that server's address and the same Apprise URLs.",
      ]);
      expect(await channel("Apprise CLI")).toBeUndefined();

      expect(await channel("Signal")).toEqual({ type: "signal", config: { server: "http://signal.example.com:8080", number: "+4915112345678", recipients: ["+4917612345678", "group.abc="] } });
      expect(notes("Signal")).not.toContain("notification.signalUrl");
      expect((await channel("Signal bare"))!.config).toMatchObject({ server: "http://signal.example.com:8080" });
      expect(notes("Signal bare")).toEqual(expect.arrayContaining(["notification.signalUrl", "notification.dropped.template"]));

      expect(await channel("Opsgenie")).toEqual({ type: "opsgenie", config: { apiKey: uuid, region: "eu", priority: 2 } });
      expect(notes("Opsgenie")).toContain("notification.opsgenieAlias");
      expect(await channel("Home Assistant")).toEqual({
        type: "homeassistant",
        config: { server: "http://homeassistant.local:8123", accessToken: "eyJhbGciOiJIUzI1NiJ9.ha-token", service: "mobile_app_pixel_8" },
      });
      expect(await channel("Twilio")).toEqual({ type: "twilio", config: { accountSid: sid, authToken: token, fromNumber: "+15005550006", toNumber: "+15551234567" } });
      expect(await channel("Pushbullet")).toEqual({ type: "pushbullet", config: { accessToken: "o.PushbulletAccessToken123" } });
      expect(await channel("Talk")).toEqual({ type: "nextcloudtalk", config: { server: "https://cloud.example.com", conversationToken: "abc123de", botSecret: secret } });
      expect(notes("Talk")).toContain("notification.dropped.silent");
      expect(await channel("OnCall")).toEqual({ type: "grafanaoncall", config: { url: "https://oncall.example.com/integrations/v1/formatted_webhook/OnCallT0ken/" } });
      expect(await channel("SendGrid")).toEqual({ type: "sendgrid", config: { apiKey: "SG.sendgrid-key.abc", from: "kuma@example.com", to: ["ops@example.com", "lead@example.com"] } });
      expect(notes("SendGrid")).toEqual(expect.arrayContaining(["notification.cc", "notification.customBody"]));
      expect(await channel("Brevo")).toEqual({ type: "brevo", config: { apiKey: "xkeysib-brevo-key", from: "Uptime Kuma <kuma@example.com>", to: ["ops@example.com"] } });
      expect(notes("Brevo")).toContain("notification.bcc");

      // The plan shows no secret of any of them.
      const text = JSON.stringify(items);
      for (const value of [uuid, token, secret, "AAEhiddenBotToken", "ha-token", "PushbulletAccessToken123", "OnCallT0ken", "sendgrid-key", "brevo-key", "notify-key-77"]) expect(text).not.toContain(value);
    } finally {
      source.close();
    }
  });
});
