import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, withSession } from "./fixtures";
import { test } from "./helpers";
import { LANGUAGES, tr, toast } from "./i18n";

// Every channel type added with SMTP and after shows its own form in both languages (its fields, named and required
// as the server wants them); an ntfy channel made through it sends a test to a local ntfy fake, and an Apprise channel
// (URLs or a key, one of the two) to a local Apprise API fake.

const FIELDS: Record<string, string[]> = {
  discord: ["url"],
  teams: ["url"],
  googlechat: ["url"],
  mattermost: ["url"],
  rocketchat: ["url"],
  matrix: ["homeserver", "accessToken", "roomId"],
  ntfy: ["server", "topic", "token", "username", "password", "priority", "tags"],
  gotify: ["server", "token", "priority"],
  pushover: ["userKey", "appToken", "priority", "sound"],
  bark: ["server", "deviceKey", "group", "level"],
  serverchan: ["sendKey"],
  pushplus: ["token", "topic"],
  pagerduty: ["routingKey"],
  apprise: ["server", "urls", "key", "tag"],
  signal: ["server", "number", "recipients"],
  opsgenie: ["apiKey", "region", "priority"],
  homeassistant: ["server", "accessToken", "service"],
  twilio: ["accountSid", "authToken", "apiKeySid", "fromNumber", "messagingServiceSid", "toNumber"],
  pushbullet: ["accessToken"],
  nextcloudtalk: ["server", "conversationToken", "botSecret"],
  grafanaoncall: ["url"],
  alertmanager: ["url", "token"],
  sendgrid: ["apiKey", "from", "to"],
  brevo: ["apiKey", "from", "to"],
};

/** A local HTTP fake that records each request and answers `reply`; closed by the returned function. */
async function fakeServer(reply: object): Promise<{ url: string; received: { path: string; body: string }[]; close: () => Promise<void> }> {
  const received: { path: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`channel types (${locale})`, () => {
    test.use({ locale });

    test("each new type's form has its fields; an ntfy channel sends a test to a local ntfy", async ({ page, vigil }) => {
      const ntfy = await fakeServer({ id: "abc123", event: "message" });
      const received = ntfy.received;
      try {
        const admin = await vigil.register("alice");
        await withSession(page, admin, "/notifications");
        await page.getByTestId("channels-add").click();
        const form = page.getByTestId("channel-form");
        for (const [type, fields] of Object.entries(FIELDS)) {
          await form.getByTestId("channel-field-type").selectOption(type);
          await expect(form.getByTestId("channel-field-type").locator("option:checked")).toHaveText(tr(m, `notifications.types.${type}`));
          for (const field of fields) await expect(form.getByTestId(`channel-field-${field}`), `${type} ${field}`).toBeVisible();
        }
        await form.getByTestId("channel-field-type").selectOption("ntfy");
        await page.getByTestId("channel-save").click();
        await expect(form.getByTestId("channel-error-server")).toHaveText(tr(m, "notifications.channelForm.fieldRequired"));
        await form.getByTestId("channel-field-name").fill("Phone");
        await form.getByTestId("channel-field-server").fill(ntfy.url);
        await form.getByTestId("channel-field-topic").fill("vigil-alerts");
        await form.getByTestId("channel-field-tags").fill("server, vigil");
        await page.getByTestId("channel-save").click();
        await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();
        const [channel] = (await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels;
        expect(channel).toMatchObject({ type: "ntfy", config: { topic: "vigil-alerts", tags: ["server", "vigil"] } });
        await page.getByTestId(`channel-test-${channel.id}`).click();
        await expect(toast(page, tr(m, "notifications.channels.testSent", { name: "Phone" }))).toBeVisible();
        expect(received).toHaveLength(1);
        expect(JSON.parse(received[0].body)).toMatchObject({ topic: "vigil-alerts" });
      } finally {
        await ntfy.close();
      }
    });

    test("an Apprise channel needs URLs or a key; made with a key, it sends a test to a local Apprise API", async ({ page, vigil }) => {
      const apprise = await fakeServer({ error: null, details: [] });
      try {
        const admin = await vigil.register("alice");
        await withSession(page, admin, "/notifications");
        await page.getByTestId("channels-add").click();
        const form = page.getByTestId("channel-form");
        await form.getByTestId("channel-field-type").selectOption("apprise");
        await form.getByTestId("channel-field-name").fill("Everywhere");
        await form.getByTestId("channel-field-server").fill(apprise.url);
        await page.getByTestId("channel-save").click();
        await expect(form.getByTestId("channel-error-urls")).toHaveText(tr(m, "notifications.channelForm.appriseTargetRequired"));
        await form.getByTestId("channel-field-key").fill("vigil-ops");
        await form.getByTestId("channel-field-tag").fill("devops");
        await page.getByTestId("channel-save").click();
        await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();
        const [channel] = (await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels;
        // The key is a secret: masked in every reply.
        expect(channel).toMatchObject({ type: "apprise", config: { server: apprise.url, key: "••••••••", tag: "devops" } });
        await page.getByTestId(`channel-test-${channel.id}`).click();
        await expect(toast(page, tr(m, "notifications.channels.testSent", { name: "Everywhere" }))).toBeVisible();
        expect(apprise.received.map((r) => r.path)).toEqual(["/notify/vigil-ops"]);
        expect(JSON.parse(apprise.received[0].body)).toMatchObject({ tag: "devops", type: "info", format: "text" });
      } finally {
        await apprise.close();
      }
    });
  });
}
