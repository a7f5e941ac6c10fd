// /api/tokens: a signed-in user's own API tokens: list, create (the secret is in that reply only), revoke.
import type { UserRow } from "../db/schema";
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { HttpError, badRequest, notFound } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import { DEFAULT_TOKEN_SCOPE, TOKEN_EXPIRY_DAYS_MAX, TOKEN_NAME_MAX, TOKEN_SCOPES } from "./public";
import type { TokenStore } from "./store";

const nameError = `Name is required (1-${TOKEN_NAME_MAX} characters)`;
const expiryError = `expiresInDays must be a whole number of days from 1 to ${TOKEN_EXPIRY_DAYS_MAX}, or null for a token that never expires`;

const createBody = t.Object({
  // Checked again after trimming in the handler; the schema bounds what is read at all.
  name: t.String({ maxLength: TOKEN_NAME_MAX * 4, error: nameError }),
  expiresInDays: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: TOKEN_EXPIRY_DAYS_MAX }), { error: expiryError })),
  /** With two-factor on: a code (or a recovery code) from the signed-in user. */
  code: t.Optional(t.String({ maxLength: 32 })),
  scope: t.Optional(t.UnionEnum(TOKEN_SCOPES, { error: `scope must be ${TOKEN_SCOPES.join(", ")}`, description: "read (GET calls only; the default), write (everything but accounts) or full (accounts too)" })),
});

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

// Managing tokens takes a sign-in session (`auth: "session"`): a leaked API token must not be able to mint more
// tokens, nor revoke the owner's others to lock them out of their own scripts.

export function tokenRoutes({ tokens, session, checkCode }: { tokens: TokenStore; session: ReturnType<typeof sessions>; checkCode?: (user: UserRow, code: string | undefined) => Promise<void> }) {
  return new Elysia({ prefix: "/api/tokens", detail: { tags: ["tokens"] } })
    .use(session)
    .get(
      "/",
      async ({ user }) => {
        return { success: true, tokens: await tokens.list(user.id) };
      },
      { auth: "session", detail: doc("Your API tokens (never their secrets)") },
    )
    .post(
      "/",
      async ({ body, user, set }) => {
        const name = body.name.trim();
        if (!name || name.length > TOKEN_NAME_MAX) throw badRequest("VALIDATION", nameError);
        if (CONTROL.test(name)) throw badRequest("VALIDATION", "Name must not contain control characters (line breaks, tabs…)");
        // A viewer's token can read and no more (a token acts as its user, so it could not write anyway).
        const scope = body.scope ?? DEFAULT_TOKEN_SCOPE;
        if (user.role === "viewer" && scope !== "read") throw new HttpError(403, "READ_ONLY", "Viewers can create read-only tokens only");
        await checkCode?.(user, body.code);
        const created = await tokens.create(user.id, name, body.expiresInDays ?? null, scope);
        set.status = 201;
        return { success: true, message: "API token created: copy it now, it will not be shown again", ...created };
      },
      { auth: "session", body: createBody, detail: doc("Create an API token: the secret is in this reply only", 409) },
    )
    .delete(
      "/:id",
      async ({ params, user }) => {
        // Someone else's token is "not found" too: its existence is none of this user's business.
        if (!(await tokens.remove(user.id, params.id))) throw notFound("API_TOKEN_NOT_FOUND", "API token not found (already revoked?)");
        return { success: true, message: "API token revoked" };
      },
      { auth: "session", params: idParams("token"), detail: doc("Revoke one of your API tokens") },
    );
}
