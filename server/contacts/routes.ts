// /api/me: the signed-in person's own contact channels (e-mail, push, a chat handle…) and quiet hours (issue 42).
// Everyone signed in may keep them, viewers too — they are about reaching that person, not about changing the team's
// setup — and each person only ever sees their own: someone else's channel is "not found". The channels are the
// notifications' (same types, validation, masking, address policy, outbox), marked with their owner, so the team's
// routes, settings and pickers never show them; escalation pages a person through them (store.contactChannelsOf).
// Managed with a sign-in session (`auth: "session"`), as devices and API tokens are.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { badRequest } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import type { Outbox } from "../notifications/outbox";
import { channelBody, sendTestMessage } from "../notifications/routes";
import type { NotificationStore } from "../notifications/store";

export interface ContactRouteDeps {
  store: NotificationStore;
  outbox: Outbox;
  session: ReturnType<typeof sessions>;
}

export function contactRoutes({ store, outbox, session }: ContactRouteDeps) {
  return (
    new Elysia({ prefix: "/api/me", detail: { tags: ["contacts"] } })
      .use(session)
      .get("/channels", async ({ user }) => ({ success: true, channels: await store.listChannels(user.id) }), {
        auth: "session",
        detail: doc("Your own contact channels (secrets masked)"),
      })
      .post(
        "/channels",
        async ({ body, user, set }) => {
          const channel = await store.createChannel({ ...body, config: body.config ?? {} }, user.id);
          set.status = 201;
          return { success: true, message: "Channel created", channel };
        },
        { auth: "session", body: channelBody, detail: doc("Add one of your contact channels (a push channel reaches your own devices)", 409) },
      )
      .get("/channels/:id", async ({ params, user }) => ({ success: true, channel: await store.getChannel(params.id, user.id) }), {
        auth: "session",
        params: idParams("channel"),
        detail: doc("One of your contact channels (secrets masked)"),
      })
      .put(
        "/channels/:id",
        async ({ params, body, user }) => ({ success: true, message: "Channel updated", channel: await store.updateChannel(params.id, body, user.id) }),
        { auth: "session", params: idParams("channel"), body: channelBody, detail: doc("Update one of your contact channels (a masked secret sent back keeps the stored one)") },
      )
      .delete(
        "/channels/:id",
        async ({ params, user }) => {
          await store.deleteChannel(params.id, user.id);
          return { success: true, message: "Channel deleted" };
        },
        { auth: "session", params: idParams("channel"), detail: doc("Delete one of your contact channels") },
      )
      .post("/channels/:id/test", async ({ params, user }) => sendTestMessage(outbox, await store.getChannel(params.id, user.id)), {
        auth: "session",
        params: idParams("channel"),
        detail: doc("Send a test message through one of your contact channels", 502),
      })
      .get("/quiet-hours", async ({ user }) => ({ success: true, quietHours: await store.userQuietHours(user.id) }), {
        auth: "session",
        detail: doc("Your quiet hours over all your contact channels (null: none)"),
      })
      .put(
        "/quiet-hours",
        async ({ body, user }) => {
          // Left out is a mistake, not "off": off is said with null.
          if (body.quietHours === undefined) throw badRequest("QUIET_HOURS_INVALID", "quietHours is required: the quiet hours, or null to turn them off");
          return { success: true, message: "Quiet hours saved", quietHours: await store.saveUserQuietHours(user.id, body.quietHours) };
        },
        {
          auth: "session",
          body: t.Object(
            { quietHours: t.Unknown({ description: '{ from: "HH:MM", to: "HH:MM", timeZone, days?: [1-7], holdDown } or null (none)' }) },
            { error: "The body is { quietHours: { from, to, timeZone, days?, holdDown } } or { quietHours: null }" },
          ),
          detail: doc("Set your quiet hours over all your contact channels (null turns them off)"),
        },
      )
  );
}
