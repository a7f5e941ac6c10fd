import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { notFound } from "../http/errors";
import { doc } from "../http/openapi";
import { idParams } from "../http/ids";
import { SECRET_BODY } from "../auth/secrets";
import { roleField } from "../users/schemas";
import { INVITE_HOURS, type Registration } from "./service";

/**
 * The instance's registration setting and its invite links (admin only), and the one public call: checking an invite
 * link before registering. Its token goes in the body, not the URL, so no access log or proxy records it.
 */
export function registrationRoutes({ registration, session }: { registration: Registration; session: ReturnType<typeof sessions> }) {
  return new Elysia({ prefix: "/api/registration", detail: { tags: ["registration"] } })
    .use(session)
    .get("/", async () => ({ success: true, open: await registration.isOpen(), invites: await registration.pendingInvites() }), { auth: "accounts", detail: doc("Whether registration is open, and the pending invites") })
    .put(
      "/",
      async ({ body }) => {
        await registration.setOpen(body.open);
        return { success: true, message: body.open ? "Registration opened" : "Registration closed", open: body.open };
      },
      { auth: "accounts", detail: doc("Open or close registration"), body: t.Object({ open: t.Boolean({ error: "open must be true or false" }) }) },
    )
    .post(
      "/invites",
      async ({ body, user, set }) => {
        const created = await registration.createInvite(user.id, body.role ?? "user", body.hours);
        set.status = 201;
        return { success: true, message: "Invite created", ...created };
      },
      {
        auth: "accounts",
        detail: doc("Create an invite link"),
        body: t.Object({
          role: t.Optional(roleField),
          hours: t.Optional(
            t.Integer({ minimum: INVITE_HOURS.min, maximum: INVITE_HOURS.max, error: `hours must be a whole number from ${INVITE_HOURS.min} to ${INVITE_HOURS.max}` }),
          ),
        }),
      },
    )
    .post("/invites/check", async ({ body }) => ({ success: true, ...(await registration.checkInvite(body.token)) }), {
      detail: doc(
        "Public: check an invite link before registering. state: valid (with the role it gives and its expiry), used, expired, or invalid (unknown or revoked)",
      ),
      body: t.Object({
        token: t.String({ pattern: `^vgl_inv_${SECRET_BODY}$`, error: "token must be an invite token: vgl_inv_ and 43 characters" }),
      }),
    })
    .delete(
      "/invites/:id",
      async ({ params }) => {
        if (!(await registration.revokeInvite(params.id))) throw notFound("INVITE_NOT_FOUND", "Invite not found (already used, expired or revoked)");
        return { success: true, message: "Invite revoked" };
      },
      { auth: "accounts", params: idParams("invite"), detail: doc("Revoke an invite") },
    );
}
