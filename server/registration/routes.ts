import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { badRequest, notFound } from "../http/errors";
import { doc } from "../http/openapi";
import { idParams } from "../http/ids";
import { SECRET_BODY } from "../auth/secrets";
import { normaliseRole, roleField } from "../users/schemas";
import { DEFAULT_INVITE_ROLE, INVITE_HOURS, type Registration } from "./service";

/**
 * The instance's registration setting and its invite links (admin only), and the one public call: checking an invite
 * link before registering. Its token goes in the body, not the URL, so no access log or proxy records it.
 */
export function registrationRoutes({ registration, session }: { registration: Registration; session: ReturnType<typeof sessions> }) {
  return new Elysia({ prefix: "/api/registration", detail: { tags: ["registration"] } })
    .use(session)
    .get("/", async () => ({ success: true, open: await registration.isOpen(), role: await registration.role(), invites: await registration.pendingInvites() }), {
      auth: "accounts",
      detail: doc("Whether registration is open, the role it gives, and the pending invites"),
    })
    .put(
      "/",
      async ({ body }) => {
        if (body.open === undefined && body.role === undefined) throw badRequest("VALIDATION", "Send open, role or both");
        if (body.open !== undefined) await registration.setOpen(body.open);
        if (body.role !== undefined) await registration.setRole(normaliseRole(body.role));
        const open = await registration.isOpen();
        return { success: true, message: open ? "Registration opened" : "Registration closed", open, role: await registration.role() };
      },
      {
        auth: "accounts",
        detail: doc("Open or close registration, and choose the role it gives (default viewer)"),
        body: t.Object({ open: t.Optional(t.Boolean({ error: "open must be true or false" })), role: t.Optional(roleField) }),
      },
    )
    .post(
      "/invites",
      async ({ body, user, set }) => {
        const created = await registration.createInvite(user.id, normaliseRole(body.role ?? DEFAULT_INVITE_ROLE), body.hours);
        set.status = 201;
        return { success: true, message: "Invite created", ...created };
      },
      {
        auth: "accounts",
        detail: doc("Create an invite link (role default viewer, hours default 168)"),
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
