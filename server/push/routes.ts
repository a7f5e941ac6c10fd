// /api/webpush: the server's VAPID public key, the signed-in person's devices (subscribe, list, remove, test), and who
// a webpush channel can name. Not under /api/push/, which is the push monitors' (a token in the path, no body read).
// Subscriptions are managed with a sign-in session (`auth: "session"`): a device is a browser someone signed in on,
// and a viewer may turn push on too (alerts reach people whatever their role).
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { HttpError, notFound } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import { renderMessage } from "../notifications/messages";
import type { SendContext } from "../notifications/providers/provider";
import { sendToDevices } from "../notifications/providers/webpush";
import type { NotificationSettings } from "../notifications/public";
import { validSubscription } from "./input";
import { PUSH_ENDPOINT_MAX, PUSH_LABEL_MAX } from "./public";
import type { PushService } from "./service";

const subscriptionBody = t.Object({
  endpoint: t.String({ minLength: 1, maxLength: PUSH_ENDPOINT_MAX, error: `endpoint must be the push service's https URL (at most ${PUSH_ENDPOINT_MAX} characters)` }),
  // Sent by PushSubscription.toJSON(); Vigil does not keep it (a push service's 404/410 says when it has ended).
  expirationTime: t.Optional(t.Nullable(t.Number())),
  keys: t.Object(
    {
      p256dh: t.String({ maxLength: 200, error: "keys.p256dh must be the browser's public key (base64url)" }),
      auth: t.String({ maxLength: 100, error: "keys.auth must be the browser's authentication secret (base64url)" }),
    },
    { error: "keys must be the subscription's { p256dh, auth }" },
  ),
  label: t.Optional(t.String({ maxLength: PUSH_LABEL_MAX * 4, error: `label must be text (at most ${PUSH_LABEL_MAX} characters)` })),
});

const deviceNotFound = () => notFound("PUSH_DEVICE_NOT_FOUND", "Device not found (removed already, or not yours)");

export interface PushRouteDeps {
  push: PushService;
  session: ReturnType<typeof sessions>;
  /** The notifications' send context (guarded fetch, timeout, SendContext.push). */
  send: () => SendContext;
  /** The language and zone messages are written in. */
  settings: () => Promise<Pick<NotificationSettings, "language" | "timeZone">>;
}

export function webPushRoutes({ push, session, send, settings }: PushRouteDeps) {
  return new Elysia({ prefix: "/api/webpush", detail: { tags: ["webpush"] } })
    .use(session)
    .get("/key", async () => ({ success: true, publicKey: await push.publicKey() }), {
      auth: "user",
      detail: doc("The server's VAPID public key (base64url): PushManager.subscribe's applicationServerKey"),
    })
    .get("/subscriptions", async ({ user }) => ({ success: true, devices: await push.store.list(user.id) }), {
      auth: "session",
      detail: doc("Your devices with push turned on"),
    })
    .post(
      "/subscriptions",
      async ({ body, user, request, set }) => {
        const input = validSubscription(body, request.headers.get("user-agent"), push.rules);
        const { device, created } = await push.store.subscribe(user.id, input);
        set.status = created ? 201 : 200;
        return { success: true, message: created ? "Push turned on for this device" : "This device's subscription was updated", device };
      },
      { auth: "session", body: subscriptionBody, detail: doc("Turn push on for this browser: its PushSubscription (201; 200 when the endpoint was known)", 409) },
    )
    .delete(
      "/subscriptions/:id",
      async ({ params, user }) => {
        // Someone else's device is "not found" too.
        if (!(await push.store.remove(user.id, params.id))) throw deviceNotFound();
        return { success: true, message: "Device removed: it gets no more pushes" };
      },
      { auth: "session", params: idParams("device"), detail: doc("Remove one of your devices") },
    )
    .post(
      "/subscriptions/:id/test",
      async ({ params, user }) => {
        const device = await push.store.device(user.id, params.id);
        if (!device) throw deviceNotFound();
        const { language, timeZone } = await settings();
        const message = renderMessage([{ kind: "test", target: { type: "channel", id: device.id, name: device.label }, time: Date.now(), facts: {} }], language, timeZone);
        const result = await sendToDevices([device], message, send());
        // The push service's own verdict: 502 when it refused or could not be reached.
        if (!result.ok) throw new HttpError(502, "PROVIDER_ERROR", result.error);
        return { success: true, message: "Test notification sent" };
      },
      { auth: "session", params: idParams("device"), detail: doc("Send a test notification to one of your devices", 502) },
    )
    .get("/recipients", async () => ({ success: true, recipients: await push.store.recipients() }), {
      auth: "editor",
      detail: doc("Who a webpush channel can name: active accounts and how many devices each has on"),
    });
}
