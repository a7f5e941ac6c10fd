import { createECDH, randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import config from "../playwright.config";
import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, toast, tr } from "./i18n";

// Push to the phone in the browser, both languages: the Devices card on /profile (its states, turning push on,
// testing and removing a device), the "Push to devices" channel form, and the service worker showing a pushed alert
// and acknowledging it from the notification's action.
//
// What Chromium cannot do here: PushManager.subscribe needs Google's push service (FCM). In Playwright's contexts
// (incognito) Chromium refuses it at once ("Registration failed - permission denied"); in a persistent profile it
// waits for FCM, which is unreachable offline. So the card is tested against that real refusal, and the subscription
// flow with PushManager replaced by one that returns a subscription made in the page (a real P-256 key and auth
// secret, an https endpoint nothing listens on): the card, the server's checks and the device list are real, the push
// service is not. Delivery itself (encryption, VAPID, a push service's answers) is tested at the protocol level in
// server/push/ and server/notifications/providers/webpush.test.ts. The service worker's `push` event is fired through
// the DevTools protocol (ServiceWorker.deliverPushMessage), as a push service would.

// The name vigil.test reaches this machine (for the plain-http test below); nothing else in this file uses it.
const launch = config.use!.launchOptions!;
test.use({ launchOptions: { ...launch, args: [...(launch.args ?? []), "--host-resolver-rules=MAP vigil.test 127.0.0.1"] } });
// The service worker is what these tests are about (fixtures.ts blocks it elsewhere).
test.use({ serviceWorkers: "allow" });

/** Replaces PushManager's subscribe and getSubscription with a subscription made in the page; records the key used. */
async function fabricatedPushService(page: Page) {
  await page.addInitScript(() => {
    const b64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    let current: unknown = null;
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
      const json = {
        endpoint: `https://127.0.0.1:1/wpush/${crypto.randomUUID()}`,
        expirationTime: null,
        keys: { p256dh: b64(await crypto.subtle.exportKey("raw", pair.publicKey)), auth: b64(crypto.getRandomValues(new Uint8Array(16))) },
      };
      const key = options?.applicationServerKey as Uint8Array;
      (window as unknown as { pushKey: string }).pushKey = b64(key);
      current = { endpoint: json.endpoint, options: { applicationServerKey: key.buffer, userVisibleOnly: true }, toJSON: () => json, unsubscribe: async () => ((current = null), true) };
      return current as PushSubscription;
    };
  });
}

/** The service worker's registration id, for the DevTools protocol. */
async function registrationId(context: BrowserContext, page: Page): Promise<{ cdp: Awaited<ReturnType<BrowserContext["newCDPSession"]>>; id: string }> {
  const cdp = await context.newCDPSession(page);
  const found = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const reg = registrations.find((r) => !r.isDeleted && new URL(r.scopeURL).pathname === "/");
      if (reg) resolve(reg.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  return { cdp, id: await found };
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`push to devices (${locale})`, () => {
    test.use({ locale });

    test("the Devices card: turn push on, see the device, test it, remove it", async ({ page, vigil, context }) => {
      await vigil.register("alice");
      const bob = await vigil.register("bob");
      await context.grantPermissions(["notifications"]);
      await fabricatedPushService(page);
      await withSession(page, bob, "/profile");
      const card = page.getByTestId("devices-card");
      await expect(card).toContainText(tr(m, "push.title"));
      await expect(card.getByTestId("push-support")).toHaveAttribute("data-state", "ready");
      await expect(card.getByTestId("devices-empty")).toHaveText(tr(m, "push.empty"));

      await card.getByTestId("push-enable").click();
      await expect(toast(page, tr(m, "push.enabled"))).toBeVisible();
      await expect(card.getByTestId("push-on")).toHaveText(tr(m, "push.thisDeviceOn"));
      const row = card.getByTestId("device-row");
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId("device-current")).toHaveText(tr(m, "push.thisDevice"));
      // Subscribed with the server's key; the server keeps the device, named after the browser.
      const { publicKey } = (await vigil.api("GET", "/api/webpush/key", undefined, bob.token)).body;
      expect(await page.evaluate(() => (window as unknown as { pushKey: string }).pushKey)).toBe(publicKey);
      const [device] = (await vigil.api("GET", "/api/webpush/subscriptions", undefined, bob.token)).body.devices;
      expect(device).toMatchObject({ label: expect.stringMatching(/^Chrome · Linux$/), service: "127.0.0.1:1", lastSuccessAt: null });

      // A test push: nothing listens at this push service, so it fails, and the device says why.
      await row.getByTestId("device-test").click();
      await expect(toast(page, tr(m, "errors.PROVIDER_ERROR", { message: "127.0.0.1:1: connection refused" }))).toBeVisible();
      await expect(row.getByTestId("device-last")).toHaveText(tr(m, "push.lastError", { error: "127.0.0.1:1: connection refused" }));

      await row.getByTestId("device-remove").click();
      await expect(page.getByTestId("confirm-dialog")).toContainText(tr(m, "push.confirmDelete.message", { name: device.label }));
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "push.deleted"))).toBeVisible();
      await expect(card.getByTestId("devices-empty")).toBeVisible();
      await expect(card.getByTestId("push-enable")).toBeVisible(); // this browser's subscription ended too
      expect((await vigil.api("GET", "/api/webpush/subscriptions", undefined, bob.token)).body.devices).toEqual([]);
    });

    test("what the card says when the browser cannot: Chromium's own refusal, notifications blocked", async ({ page, vigil, context }) => {
      const admin = await vigil.register("alice");
      await context.grantPermissions(["notifications"]);
      await withSession(page, admin, "/profile");
      const card = page.getByTestId("devices-card");
      // The real PushManager: this Chromium has no push service to register with.
      await card.getByTestId("push-enable").click();
      await expect(card.getByTestId("push-error")).toContainText(tr(m, "push.subscribeFailed", { message: "" }).trim());
      expect((await vigil.api("GET", "/api/webpush/subscriptions", undefined, admin.token)).body.devices).toEqual([]);

      // Blocked for the site: the card says where to change it, and offers no button.
      const blocked = await context.newPage();
      await blocked.addInitScript(() => Object.defineProperty(Notification, "permission", { get: () => "denied" }));
      await withSession(blocked, admin, "/profile");
      const denied = blocked.getByTestId("push-support");
      await expect(denied).toHaveAttribute("data-state", "denied");
      await expect(denied).toHaveText(tr(m, "push.cannot.denied"));
      await expect(blocked.getByTestId("push-enable")).toHaveCount(0);
    });

    test("the service worker shows a pushed alert, and its Acknowledge action posts the signed link", async ({ page, vigil, context }) => {
      const admin = await vigil.register("alice");
      await context.grantPermissions(["notifications"]);
      await withSession(page, admin, "/profile");
      await page.evaluate(() => navigator.serviceWorker.ready);
      const { cdp, id } = await registrationId(context, page);
      const payload = {
        title: "🔴 Monitor down: Shop",
        body: "URL: https://shop.example.com\nStatus code: 503",
        severity: "critical",
        url: "/monitors/7",
        tag: "monitor-7-status",
        ackUrl: `${vigil.url}/ack/token-abc.def`,
        ackLabel: locale === "zh-CN" ? "确认" : "Acknowledge", // the server names it in the message's language
        timestamp: Date.now(),
      };
      const shown = async () =>
        page.evaluate(async () =>
          (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data, requireInteraction: n.requireInteraction, actions: (n as unknown as { actions: { action: string; title: string }[] }).actions })),
        );
      // A push delivered while the worker is still starting can be dropped by the browser (seen on a busy machine):
      // delivered again until one shows. The same tag makes a second one replace the first, never add to it.
      await expect
        .poll(async () => {
          if ((await shown()).length === 0) await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(vigil.url).origin, registrationId: id, data: JSON.stringify(payload) });
          return (await shown()).length;
        }, { intervals: [500, 1000, 1000, 2000], timeout: 15_000 })
        .toBe(1);
      await expect.poll(shown).toMatchObject([
        {
          title: payload.title,
          body: payload.body,
          tag: payload.tag,
          data: { url: "/monitors/7", ackUrl: payload.ackUrl },
          requireInteraction: true,
          actions: [{ action: "ack", title: payload.ackLabel }],
        },
      ]);
      // The recovery has the same tag: it replaces the down notification.
      const recovery = { ...payload, title: "🟢 Monitor recovered: Shop", severity: "ok", ackUrl: undefined, ackLabel: undefined };
      await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(vigil.url).origin, registrationId: id, data: JSON.stringify(recovery) });
      await expect.poll(async () => (await shown()).map((n) => [n.title, n.tag, n.actions.length, n.requireInteraction])).toEqual([[recovery.title, "monitor-7-status", 0, false]]);

      // Acknowledge: the worker posts the token to the API form of the link (POST /api/ack/<token>). A click on a
      // system notification cannot be made from here; the worker is handed the click event its handler gets.
      await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(vigil.url).origin, registrationId: id, data: JSON.stringify(payload) });
      await expect.poll(async () => (await shown())[0]?.data?.ackUrl).toBe(payload.ackUrl);
      const acks: string[] = [];
      await context.route("**/api/ack/**", async (route) => {
        acks.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
        await route.fulfill({ json: { success: true } });
      });
      const [worker] = context.serviceWorkers();
      await worker!.evaluate(async () => {
        const [notification] = await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications();
        self.dispatchEvent(new NotificationEvent("notificationclick", { notification: notification!, action: "ack" }));
      }).catch(() => {});
      await expect.poll(() => acks).toEqual(["POST /api/ack/token-abc.def"]);
    });

    test("a Push to devices channel names people (with their devices) or a role", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const bob = await vigil.register("bob");
      const phone = await vigil.api("POST", "/api/webpush/subscriptions", { endpoint: "https://127.0.0.1:1/wpush/bob", keys: fabricatedKeys(), label: "Phone" }, bob.token);
      expect(phone.status).toBe(201);
      await withSession(page, admin, "/notifications");
      await page.getByTestId("channels-add").click();
      const form = page.getByTestId("channel-form");
      await form.getByTestId("channel-field-type").selectOption("webpush");
      await expect(form.getByTestId("channel-field-type").locator("option:checked")).toHaveText(tr(m, "notifications.types.webpush"));
      const people = form.getByTestId("channel-field-userIds");
      await expect(people.locator("li")).toHaveCount(2);
      // i18next's plural forms: English has "one", Chinese only "other".
      await expect(people.locator("li").filter({ hasText: "bob" })).toContainText(tr(m, `notifications.channelForm.recipientDevices_${locale === "en-US" ? "one" : "other"}`, { count: 1 }));
      await form.getByTestId("channel-field-name").fill("On call");
      await page.getByTestId("channel-save").click();
      await expect(form.getByTestId("channel-error-userIds")).toHaveText(tr(m, "notifications.channelForm.webpushRequired"));
      await form.getByTestId(`push-recipient-${bob.user.id}`).check();
      await form.getByTestId("channel-field-role").selectOption("admin");
      await page.getByTestId("channel-save").click();
      await expect(form.getByTestId("channel-error-userIds")).toHaveText(tr(m, "notifications.channelForm.webpushBoth"));
      await form.getByTestId("channel-field-role").selectOption("");
      await page.getByTestId("channel-save").click();
      await expect(toast(page, tr(m, "notifications.channelCreated"))).toBeVisible();
      const [channel] = (await vigil.api("GET", "/api/notifications/channels", undefined, admin.token)).body.channels;
      expect(channel).toMatchObject({ type: "webpush", config: { userIds: [bob.user.id] } });
      // A test through the channel goes to bob's phone, whose push service is not there.
      await page.getByTestId(`channel-test-${channel.id}`).click();
      await expect(toast(page, tr(m, "notifications.channels.testFailed"))).toBeVisible();
    });
  });
}

// A host name that is not localhost, over plain http: no secure context, so no Push API (Chromium resolves the name to
// this machine).
test.describe("push over plain http from another host", () => {
  for (const [locale, m] of LANGUAGES) {
    test(`the card says push needs https (${locale})`, async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, `${vigil.url.replace("127.0.0.1", "vigil.test")}/profile?lng=${locale}`);
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      const support = page.getByTestId("push-support");
      await expect(support).toHaveAttribute("data-state", "insecure");
      await expect(support).toHaveText(tr(m, "push.cannot.insecure"));
      await expect(page.getByTestId("push-enable")).toHaveCount(0);
    });
  }
});

/** A browser's subscription keys: a real P-256 public point and a 16-byte secret, as a browser makes them. */
function fabricatedKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH("prime256v1");
  return { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}
