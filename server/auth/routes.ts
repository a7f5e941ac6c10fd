import { Elysia, t } from "elysia";
import { HttpError, badRequest } from "../http/errors";
import { doc } from "../http/openapi";
import { clientIp } from "../http/client-ip";
import { toPublicUser } from "../users/public";
import { emailField, normaliseEmail, passwordField, usernameField } from "../users/schemas";
import type { UserStore } from "../users/store";
import type { UserRow } from "../db/schema";
import type { Registration } from "../registration/service";
import type { PasswordHasher } from "./passwords";
import type { LoginLimits } from "./rate-limit";
import type { sessions } from "./session";
import { codeField } from "./two-factor/routes";
import { wrongCode, type TwoFactor } from "./two-factor/service";

export interface AuthRouteDeps {
  users: UserStore;
  twoFactor: TwoFactor;
  passwords: PasswordHasher;
  registration: Registration;
  limits: LoginLimits;
  session: ReturnType<typeof sessions>;
  /** Trusted reverse proxies in front of Vigil (0: none): see http/client-ip.ts. */
  trustProxy: number;
  /** Whether passwords may sign in (single sign-on can turn them off: server/auth/sso/). */
  passwordLogin?: () => Promise<boolean>;
}

const tooManyAttempts = (seconds: number) =>
  new HttpError(429, "TOO_MANY_ATTEMPTS", `Too many failed sign-in attempts. Try again in ${Math.ceil(seconds / 60)} minute(s).`, {
    retryAfter: seconds,
  });

const invalidCredentials = () => new HttpError(401, "INVALID_CREDENTIALS", "Incorrect username or password");
const challengeInvalid = () => new HttpError(401, "TWO_FACTOR_CHALLENGE_INVALID", "This sign-in has expired: enter your password again");

/** How long the second step of a sign-in may take. */
const CHALLENGE_TTL_S = 300;

type Signer = { sign: (claims: Record<string, string | number>) => Promise<string> };

/**
 * The reply to a first sign-in step that proved who the user is (a password, or single sign-on): a session, or — with
 * two-factor on — a challenge for /login/2fa, good for one session (its `jti` is spent then).
 */
export async function signInReply(user: UserRow, jwt: Signer, issueToken: (user: UserRow) => Promise<string>) {
  if (user.twoFactorAt !== null) {
    const challenge = await jwt.sign({ kind: "2fa", sub: String(user.id), sv: user.sessionVersion, jti: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_S });
    return { success: true, message: "Enter the code from your authenticator app", twoFactor: true, challenge } as const;
  }
  return { success: true, message: "Login successful", token: await issueToken(user), user: toPublicUser(user) } as const;
}

export function authRoutes({ users, twoFactor, passwords, registration, limits, session, trustProxy, passwordLogin = async () => true }: AuthRouteDeps) {
  return new Elysia({ prefix: "/api/auth", detail: { tags: ["auth"] } })
    .use(session)
    .post(
      "/login",
      async ({ body, request, server, issueToken, set, jwt }) => {
        if (!(await passwordLogin())) throw new HttpError(403, "PASSWORD_LOGIN_DISABLED", "Password sign-in is turned off on this instance: use single sign-on");
        const ip = clientIp(request, server, trustProxy);
        const login = body.username.trim();
        const user = await users.byLogin(login);
        // Guesses count against the account, whichever of its names (username or email) was typed; a name that
        // matches no account is counted on its own, so guessing at names is limited too.
        const accountKey = user ? `user:${user.id}` : `unknown:${login.toLowerCase()}`;
        const wait = Math.max(await limits.byIp.retryAfter(ip), await limits.byAccount.retryAfter(accountKey));
        if (wait > 0) {
          set.headers["retry-after"] = String(wait);
          throw tooManyAttempts(wait);
        }
        const ok = user ? await passwords.verify(body.password, user.passwordHash) : (await passwords.burn(body.password), false);
        // A disabled account answers exactly as a wrong password does, right password or not: a different answer
        // would tell a guesser when they had found a disabled account's password.
        if (!user || !ok || user.status !== "active") {
          await limits.byIp.fail(ip);
          await limits.byAccount.fail(accountKey);
          throw invalidCredentials();
        }
        await limits.byAccount.reset(accountKey);
        // The password was right; with two-factor on, the session comes with the second step (/login/2fa).
        return signInReply(user, jwt, issueToken);
      },
      {
        detail: doc("Sign in with a username or email: returns a session token (403 PASSWORD_LOGIN_DISABLED when only single sign-on may)", 401, 403, 429),
        body: t.Object({
          username: t.String({ minLength: 1, maxLength: 254, error: "Username is required" }),
          password: t.String({ minLength: 1, maxLength: 1024, error: "Password is required" }),
        }),
      },
    )
    .post(
      "/login/2fa",
      async ({ body, request, server, issueToken, set, jwt }) => {
        const claims = await jwt.verify(body.challenge);
        const user = claims && claims.kind === "2fa" && typeof claims.sub === "string" ? await users.byId(Number(claims.sub)) : undefined;
        const jti = claims && typeof claims.jti === "string" ? claims.jti : undefined;
        // Expired, forged, signed in with already, or the account changed since (disabled, password changed): sign in
        // again.
        if (!user || user.status !== "active" || claims === false || claims.sv !== user.sessionVersion || user.twoFactorAt === null || !jti || (await twoFactor.challengeSpent(jti))) {
          throw challengeInvalid();
        }
        const ip = clientIp(request, server, trustProxy);
        // Wrong codes count against the account whatever the challenge or address (a fresh challenge is only a
        // password away), and against the address.
        const key = `user:${user.id}`;
        const wait = Math.max(await limits.byIp.retryAfter(ip), await limits.codes.retryAfter(key));
        if (wait > 0) {
          set.headers["retry-after"] = String(wait);
          throw tooManyAttempts(wait);
        }
        if (!(await twoFactor.verify(user, body.code, { recovery: true }))) {
          await limits.byIp.fail(ip);
          await limits.codes.fail(key);
          throw wrongCode(401);
        }
        // Spent once the code was right (a typo keeps the challenge), before the session: of two requests racing on
        // one challenge, one signs in. Remembered while the challenge could still be valid.
        if (!(await twoFactor.spendChallenge(jti, Date.now() + CHALLENGE_TTL_S * 1000))) throw challengeInvalid();
        await limits.codes.reset(key);
        return { success: true, message: "Login successful", token: await issueToken(user), user: toPublicUser(user) };
      },
      {
        detail: doc("Second step of a sign-in with two-factor on: the challenge from /login (good for one session) and a code (or a recovery code)", 401, 429),
        body: t.Object({ challenge: t.String({ maxLength: 2048, error: "challenge is required" }), code: codeField }),
      },
    )
    .post(
      "/register",
      async ({ body, set, issueToken }) => {
        if (body.confirmPassword !== undefined && body.confirmPassword !== body.password) {
          throw badRequest("PASSWORDS_DO_NOT_MATCH", "Passwords do not match");
        }
        const username = body.username.trim();
        const email = normaliseEmail(body.email) ?? null;
        // Closed registration, a bad invite and taken names are refused before the costly hash.
        await registration.admit(body.invite);
        await users.assertUnique(username, email);
        // Hashed before register's transaction, which decides again (under a lock) who may get in.
        const passwordHash = await passwords.hash(body.password);
        const user = await registration.register({ username, email, passwordHash }, body.invite);
        set.status = 201;
        // Signed in at once: the new account does not have to type its password again.
        return {
          success: true,
          message: user.role === "admin" && (await users.count()) === 1 ? "Registration successful: you are the administrator" : "Registration successful",
          token: await issueToken(user),
          user: toPublicUser(user),
        };
      },
      {
        detail: doc("Register an account (the first is the admin) and sign in", 403, 409),
        body: t.Object({
          username: usernameField,
          email: emailField,
          password: passwordField,
          confirmPassword: t.Optional(t.String({ maxLength: 1024 })),
          invite: t.Optional(t.String({ minLength: 1, maxLength: 200, error: "The invite is not valid" })),
        }),
      },
    )
    .get("/me", ({ user }) => ({ success: true, user: toPublicUser(user) }), { auth: "user", detail: doc("The signed-in user") });
}
