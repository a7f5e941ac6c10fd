// /api/auth/2fa: a user's own two-factor sign-in (status, set-up, confirm, turn off), the instance policy (admins)
// and an admin's reset of someone's second factor. Signing in with a code is in auth/routes.ts (/api/auth/login/2fa).
import { Elysia, t } from "elysia";
import { doc } from "../../http/openapi";
import { badRequest, HttpError, notFound } from "../../http/errors";
import { userIdParams } from "../../users/schemas";
import type { UserStore } from "../../users/store";
import type { PasswordHasher } from "../passwords";
import type { LoginLimits } from "../rate-limit";
import type { sessions } from "../session";
import { codeRequired, wrongCode, type TwoFactor } from "./service";

export const codeField = t.String({ maxLength: 32, error: "code must be the 6 digits of your authenticator app or a recovery code" });

export interface TwoFactorRouteDeps {
  twoFactor: TwoFactor;
  users: UserStore;
  limits: LoginLimits;
  session: ReturnType<typeof sessions>;
  passwords: PasswordHasher;
  /**
   * Whether the account signs in through single sign-on (linked to a provider): one it created has a random password
   * nobody knows, so setting up asks for the password only when one is given.
   */
  ssoLinked: (userId: number) => Promise<boolean>;
}

/**
 * Checks a signed-in user's code where a sensitive change needs one (with two-factor on): missing → 403, wrong →
 * 400, and wrong ones count against the account's limit on wrong codes (429 past it).
 */
export async function requireCode(twoFactor: TwoFactor, limits: LoginLimits, user: Parameters<TwoFactor["verify"]>[0], code: string | undefined, recovery = true) {
  if (user.twoFactorAt === null) return;
  if (!code) throw codeRequired();
  const key = `user:${user.id}`;
  const wait = await limits.codes.retryAfter(key);
  if (wait > 0) throw tooManyCodes(wait);
  if (!(await twoFactor.verify(user, code, { recovery }))) {
    await limits.codes.fail(key);
    throw wrongCode();
  }
}

/**
 * Checks the signed-in user's current password where setting up two-factor sign-in reveals its secret (a session
 * left open must not be enough): missing → 400 CURRENT_PASSWORD_REQUIRED, wrong → 400 WRONG_CURRENT_PASSWORD (not
 * 401: that would read as "your session ended"), counted with the account's wrong sign-in passwords (429 past them).
 */
async function requirePassword({ passwords, limits, ssoLinked }: TwoFactorRouteDeps, user: Parameters<TwoFactor["setup"]>[0], password: string | undefined) {
  if (!password) {
    if (await ssoLinked(user.id)) return;
    throw badRequest("CURRENT_PASSWORD_REQUIRED", "Enter your current password to set up two-factor sign-in");
  }
  const key = `user:${user.id}`;
  const wait = await limits.byAccount.retryAfter(key);
  if (wait > 0) throw tooManyPasswords(wait);
  if (!(await passwords.verify(password, user.passwordHash))) {
    await limits.byAccount.fail(key);
    throw badRequest("WRONG_CURRENT_PASSWORD", "Current password is incorrect");
  }
}

const tooManyPasswords = (seconds: number) =>
  new HttpError(429, "TOO_MANY_ATTEMPTS", `Too many wrong passwords. Try again in ${Math.ceil(seconds / 60)} minute(s).`, { retryAfter: seconds });

export const tooManyCodes = (seconds: number) =>
  new HttpError(429, "TOO_MANY_ATTEMPTS", `Too many wrong codes. Try again in ${Math.ceil(seconds / 60)} minute(s).`, { retryAfter: seconds });

export function twoFactorRoutes(deps: TwoFactorRouteDeps) {
  const { twoFactor, users, limits, session, ssoLinked } = deps;
  return new Elysia({ prefix: "/api/auth/2fa", detail: { tags: ["auth"] } })
    .use(session)
    .get(
      "/",
      async ({ user }) => ({ success: true, ...(await twoFactor.status(user)), passwordRequired: !(await ssoLinked(user.id)) }),
      { auth: "session", detail: doc("Your two-factor sign-in: on or off, recovery codes left, whether the instance requires it, whether setting it up asks for your password") },
    )
    .post(
      "/setup",
      // The password is asked here, not at /enable: this step reveals the secret, and /enable only confirms the
      // secret this step stored.
      async ({ user, body }) => {
        await requirePassword(deps, user, body?.currentPassword);
        return { success: true, ...(await twoFactor.setup(user)) };
      },
      {
        auth: "session",
        body: t.Optional(t.Object({ currentPassword: t.Optional(t.String({ maxLength: 1024, error: "currentPassword must be text" })) })),
        detail: doc("Start setting up two-factor sign-in with your current password (not asked of an account that signs in through single sign-on): a new secret, its otpauth:// URI and QR code (confirm with /enable)", 400, 409, 429),
      },
    )
    .post(
      "/enable",
      async ({ user, body }) => {
        const key = `user:${user.id}`;
        const wait = await limits.codes.retryAfter(key);
        if (wait > 0) throw tooManyCodes(wait);
        try {
          const recoveryCodes = await twoFactor.enable(user, body.code);
          return { success: true, message: "Two-factor sign-in is on: keep the recovery codes somewhere safe", recoveryCodes };
        } catch (e) {
          if ((e as { code?: string }).code === "TWO_FACTOR_WRONG_CODE") await limits.codes.fail(key);
          throw e;
        }
      },
      { auth: "session", body: t.Object({ code: codeField }), detail: doc("Confirm the set-up with a first code: two-factor sign-in is on; the ten recovery codes are in this reply only", 400, 409, 429) },
    )
    .post(
      "/disable",
      async ({ user, body }) => {
        await requireCode(twoFactor, limits, user, body.code);
        await twoFactor.disable(user.id);
        return { success: true, message: "Two-factor sign-in is off" };
      },
      { auth: "session", body: t.Object({ code: codeField }), detail: doc("Turn two-factor sign-in off (with a code or a recovery code)", 400, 403, 429) },
    )
    .put(
      "/policy",
      async ({ body }) => {
        await twoFactor.setRequired(body.required);
        return { success: true, required: body.required };
      },
      { auth: "accounts", body: t.Object({ required: t.Boolean({ error: "required must be true or false" }) }), detail: doc("Require two-factor sign-in of everyone (admins)") },
    )
    .post(
      "/reset/:id",
      async ({ params }) => {
        if (!(await users.byId(params.id))) throw notFound("USER_NOT_FOUND", "User not found");
        await twoFactor.disable(params.id);
        return { success: true, message: "Two-factor sign-in reset: the user signs in with their password and may set it up again" };
      },
      { auth: "accounts", params: userIdParams, detail: doc("Reset a user's second factor (a lost phone): it is off until they set it up again (admins)", 404) },
    );
}
