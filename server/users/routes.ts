import { Elysia, t } from "elysia";
import type { PasswordHasher } from "../auth/passwords";
import type { sessions } from "../auth/session";
import type { UserRow } from "../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../http/errors";
import { doc } from "../http/openapi";
import { toPublicUser } from "./public";
import { emailField, normaliseEmail, normaliseRole, passwordField, roleField, statusField, userIdParams, usernameField } from "./schemas";
import type { UserStore } from "./store";

export interface UserRouteDeps {
  users: UserStore;
  passwords: PasswordHasher;
  session: ReturnType<typeof sessions>;
  /** With two-factor on, your own password change needs a code too (auth/two-factor/routes.ts requireCode). */
  checkCode?: (user: UserRow, code: string | undefined) => Promise<void>;
}

const userNotFound = () => notFound("USER_NOT_FOUND", "User not found");

/** Admins may act on anyone; everyone else only on themself. */
function assertSelfOrAdmin(actor: UserRow, id: number) {
  if (actor.role !== "admin" && actor.id !== id) throw forbidden("You can only change your own account");
}

export function userRoutes({ users, passwords, session, checkCode }: UserRouteDeps) {
  return new Elysia({ prefix: "/api/users", detail: { tags: ["users"] } })
    .use(session)
    .get("/", async () => ({ success: true, message: "OK", users: (await users.list()).map(toPublicUser) }), { auth: "accounts", detail: doc("List the users") })
    .post(
      "/",
      async ({ body, set }) => {
        const username = body.username.trim();
        const email = normaliseEmail(body.email) ?? null;
        await users.assertUnique(username, email);
        const created = await users.create({ username, email, role: normaliseRole(body.role ?? "editor"), passwordHash: await passwords.hash(body.password) });
        set.status = 201;
        return { success: true, message: "User created", user: toPublicUser(created) };
      },
      {
        auth: "accounts",
        detail: doc("Create a user", 409),
        body: t.Object({ username: usernameField, email: emailField, password: passwordField, role: t.Optional(roleField) }),
      },
    )
    .get(
      "/:id",
      async ({ params, user }) => {
        assertSelfOrAdmin(user, params.id);
        const found = await users.byId(params.id);
        if (!found) throw userNotFound();
        return { success: true, user: toPublicUser(found) };
      },
      { auth: "self", params: userIdParams, detail: doc("A user") },
    )
    .put(
      "/:id",
      async ({ params, body, user }) => {
        assertSelfOrAdmin(user, params.id);
        if (user.role !== "admin" && (body.role !== undefined || body.status !== undefined)) {
          throw forbidden("Only an admin can change roles or account status");
        }
        if (params.id === user.id && body.status === "disabled") {
          throw conflict("CANNOT_DISABLE_SELF", "You cannot disable your own account");
        }
        const updated = await users.update(params.id, {
          username: body.username.trim(),
          // Absent email leaves it as it is; "" or null clears it.
          email: normaliseEmail(body.email),
          role: body.role && normaliseRole(body.role),
          status: body.status,
        });
        if (!updated) throw userNotFound();
        return { success: true, message: "Profile updated", user: toPublicUser(updated) };
      },
      {
        auth: "self",
        params: userIdParams,
        detail: doc("Update a user (role and status: admins only)", 409),
        body: t.Object({
          username: usernameField,
          email: emailField,
          role: t.Optional(roleField),
          status: t.Optional(statusField),
        }),
      },
    )
    .delete(
      "/:id",
      async ({ params, user }) => {
        if (params.id === user.id) throw conflict("CANNOT_DELETE_SELF", "You cannot delete your own account");
        if (!(await users.remove(params.id))) throw userNotFound();
        return { success: true, message: "User deleted" };
      },
      { auth: "accounts", params: userIdParams, detail: doc("Delete a user", 409) },
    )
    .post(
      "/:id/change-password",
      async ({ params, body, user, issueToken }) => {
        assertSelfOrAdmin(user, params.id);
        const target = await users.byId(params.id);
        if (!target) throw userNotFound();
        const self = target.id === user.id;
        // Your own password needs the current one, even for an admin; an admin resetting someone else's does not.
        if (self) {
          if (!body.currentPassword) throw badRequest("VALIDATION", "Current password is required");
          if (!(await passwords.verify(body.currentPassword, target.passwordHash))) {
            throw badRequest("WRONG_CURRENT_PASSWORD", "Current password is incorrect");
          }
          await checkCode?.(target, body.code);
        }
        // Every older token of the target stops working; the caller changing their own password gets a fresh one.
        // Hashed before the update's transaction: nothing slow runs inside one.
        const passwordHash = await passwords.hash(body.newPassword);
        const updated = await users.update(target.id, { passwordHash, revokeSessions: true });
        if (!updated) throw userNotFound(); // deleted meanwhile
        return {
          success: true,
          message: "Password changed",
          ...(self ? { token: await issueToken(updated) } : {}),
        };
      },
      {
        auth: "self",
        params: userIdParams,
        detail: doc("Change a password (your own needs the current one); ends the user's other sessions"),
        body: t.Object({
          currentPassword: t.Optional(t.String({ maxLength: 1024 })),
          newPassword: passwordField,
          code: t.Optional(t.String({ maxLength: 32 })),
        }),
      },
    );
}
