import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import type { UserRow } from "../db/schema";
import { forbidden, HttpError, unauthorized } from "../http/errors";
import { authDetail } from "../http/openapi";
import type { UserStore } from "../users/store";
import { API_TOKEN_MARKER, scopeNeeded, TOKEN_SCOPES, type TokenScope } from "../tokens/public";
import type { TokenStore } from "../tokens/store";

export interface SessionOptions {
  /**
   * Whether the instance requires two-factor sign-in of everyone (cached; server/auth/two-factor/): a session of a
   * user without it then reaches only SECOND_FACTOR_ENROLMENT (to set it up) until they do.
   */
  twoFactorRequired?: () => boolean;
  secret: string;
  /** e.g. "7d" */
  ttl: string;
  users: UserStore;
  /** API tokens (server/tokens): accepted as a bearer credential too, when given. */
  tokens?: Pick<TokenStore, "check">;
}

/** How a request proved who it is: a sign-in session (JWT) or an API token. */
export type AuthVia = "session" | "token";

/**
 * Who may call a route (the `auth` option):
 * - "user": anyone signed in to read (GET, HEAD); editors and admins to change (any other method): a viewer is
 *   refused with 403 READ_ONLY;
 * - "editor": editors and admins, whatever the method (reads that hold secrets: agent registration tokens);
 * - "admin": admins;
 * - "accounts": admins managing accounts (users, registration, invites) or downloading a backup (which holds them)
 *   — API tokens need the `full` scope;
 * - "self": admins, or the user whose id is the path's :id (their own account) — API tokens need `full`;
 * - "session": anyone signed in with a session, not an API token (managing API tokens, a browser's push subscription).
 */
export type AuthLevel = "user" | "editor" | "admin" | "accounts" | "self" | "session";

const READS = new Set(["GET", "HEAD"]);

/** What a session held back by pendingSecondFactor meets outside its enrolment. */
export const secondFactorRequired = () =>
  new HttpError(403, "TWO_FACTOR_SETUP_REQUIRED", "Two-factor sign-in is required on this instance: set it up on your profile first");

/** What a viewer meets when it tries to change something. */
export const readOnly = () => new HttpError(403, "READ_ONLY", "Viewers can look but not change anything: ask an admin for the editor role");

function assertScope(scope: TokenScope, needed: TokenScope) {
  if (TOKEN_SCOPES.indexOf(scope) >= TOKEN_SCOPES.indexOf(needed)) return;
  throw new HttpError(
    403,
    "TOKEN_SCOPE",
    needed === "full"
      ? "This API token cannot manage accounts: that takes a token with full access"
      : "This API token is read-only: it can only read (GET)",
  );
}

/**
 * Whether a session of `user` is held back until they set up a second factor: the instance requires one of everyone
 * and they have none yet.
 */
const pendingSecondFactor = (user: Pick<UserRow, "twoFactorAt">, required: boolean) => required && user.twoFactorAt === null;

/**
 * The only routes a session held back by pendingSecondFactor may call: what the app's /profile needs to enrol (its
 * own account, its two-factor status, set-up, and enabling with a first code). Signing out needs no call (the app
 * forgets its token); signing in and registering are public. Everything else behind `auth` — the security settings
 * (single sign-on, the two-factor policy and resets), password changes, API tokens, accounts — answers 403
 * TWO_FACTOR_SETUP_REQUIRED. Channels outside `auth` (the live socket) check pendingSecondFactor themselves.
 */
const SECOND_FACTOR_ENROLMENT = new Set(["GET /api/auth/me", "GET /api/auth/2fa", "POST /api/auth/2fa/setup", "POST /api/auth/2fa/enable"]);

/** What a verified token says: who, which session version, and when it expires (Unix seconds). */
export interface SessionClaims {
  userId: number;
  sv: number;
  exp?: number;
}

/** Whether a session is still good for its user as it now is: active, same session version, not expired. */
export function sessionValid(user: Pick<UserRow, "status" | "sessionVersion"> | undefined, claims: SessionClaims, nowMs = Date.now()): boolean {
  if (claims.exp !== undefined && claims.exp * 1000 <= nowMs) return false;
  return user !== undefined && user.status === "active" && claims.sv === user.sessionVersion;
}

/** The user a token's claims name, while that session is still good (sessionValid). */
export async function sessionUser(users: Pick<UserStore, "byId">, claims: SessionClaims, nowMs = Date.now()): Promise<UserRow | undefined> {
  if (claims.exp !== undefined && claims.exp * 1000 <= nowMs) return undefined;
  const user = await users.byId(claims.userId);
  return sessionValid(user, claims, nowMs) ? user : undefined;
}

/**
 * Bearer-token sessions. A token names the user and the user's session version; it stops working when it expires,
 * when the user is deleted or disabled, when their password is reset, or when it was signed with another secret.
 *
 * Routes opt in with `{ auth: level }` (AuthLevel) and receive the signed-in `user` row, and `via`: how the caller
 * authenticated. An API token (`vgl_api_…`) acts as its user, with the same role narrowed by its scope, while it
 * exists, has not expired and its user is active; it ignores the session version (a password change does not revoke
 * it, revoking is explicit; disabling the user deletes it). Where no header can be sent (a WebSocket from a browser), `verifySession(token)` applies the session
 * rules; API tokens are for the REST API only.
 */
export function sessions({ secret, ttl, users, tokens, twoFactorRequired = () => false }: SessionOptions) {
  // Who each request is, from the auth check (transform) to the route (resolve).
  const callers = new WeakMap<Request, { user: UserRow; via: AuthVia }>();
  type Jwt = { verify: (token?: string) => Promise<false | Record<string, unknown>> };
  async function verify(jwt: Jwt, token: string): Promise<{ user: UserRow; claims: SessionClaims } | null> {
    if (!token) return null;
    const payload = await jwt.verify(token);
    // Other tokens signed with the same key (a sign-in's second-factor challenge, a status page's unlock) name their
    // kind: none of them is a session.
    if (!payload || typeof payload.sub !== "string" || payload.kind !== undefined) return null;
    const claims: SessionClaims = {
      userId: Number(payload.sub),
      sv: payload.sv as number,
      exp: typeof payload.exp === "number" ? payload.exp : undefined,
    };
    const user = await sessionUser(users, claims);
    return user ? { user, claims } : null;
  }

  return new Elysia({ name: "sessions" })
    .use(jwt({ name: "jwt", secret, exp: ttl }))
    .derive({ as: "global" }, ({ jwt }) => ({
      issueToken: (user: UserRow) => jwt.sign({ sub: String(user.id), sv: user.sessionVersion }),
      verifySession: (token: string) => verify(jwt, token),
      /** Whether a user's sessions are held back until they set up two-factor sign-in (the instance requires it). */
      twoFactorPending: (user: Pick<UserRow, "twoFactorAt">) => pendingSecondFactor(user, twoFactorRequired()),
    }))
    .macro({
      auth: (level: AuthLevel) => ({
        // The API docs (http/openapi.ts) learn from here which routes need which credential.
        detail: authDetail(level),
        // Decided in `transform`, which runs before the body and params are validated: a caller who may not use a
        // route gets 401/403 whatever they sent, never a validation message about a route they cannot call.
        // request.headers, not the parsed `headers`: Elysia infers what to parse from the handler's source, which
        // minification (the compiled executable) hides, leaving `headers` undefined there.
        async transform({ request, jwt, params }) {
          const header = request.headers.get("authorization") ?? "";
          const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
          if (!token) throw unauthorized();
          let user: UserRow;
          let via: AuthVia;
          let scope: TokenScope | undefined;
          // Any Vigil secret ("vgl_…": agent credentials included) is judged as an API token, for a message that
          // fits; a JWT never starts so.
          if (token.startsWith("vgl_")) {
            const found = token.startsWith(API_TOKEN_MARKER) && tokens ? await tokens.check(token) : ({ ok: false, reason: "invalid" } as const);
            if (!found.ok) {
              throw unauthorized(found.reason === "expired" ? "This API token has expired" : "This API token is not valid (revoked, or its account is disabled or deleted)");
            }
            ({ user, scope } = found);
            via = "token";
          } else {
            const session = await verify(jwt, token);
            if (!session) throw unauthorized("Your session has expired, please sign in again");
            ({ user } = session);
            via = "session";
          }
          if ((level === "admin" || level === "accounts") && user.role !== "admin") throw forbidden("Only an admin can do this");
          if (user.role === "viewer" && (level === "editor" || (level === "user" && !READS.has(request.method)))) throw readOnly();
          if (level === "self" && user.role !== "admin" && String(user.id) !== String((params as { id?: unknown } | undefined)?.id)) {
            throw forbidden("You can only change your own account");
          }
          if (level === "session" && via === "token") {
            const tokensPath = new URL(request.url).pathname.startsWith("/api/tokens");
            throw forbidden(tokensPath ? "API tokens cannot manage API tokens: sign in to Vigil to do this" : "API tokens cannot do this: sign in to Vigil to do it");
          }
          if (scope) assertScope(scope, scopeNeeded(level, request.method));
          if (via === "session" && pendingSecondFactor(user, twoFactorRequired())) {
            const path = new URL(request.url).pathname.replace(/\/+$/, "");
            if (!SECOND_FACTOR_ENROLMENT.has(`${request.method} ${path}`)) throw secondFactorRequired();
          }
          callers.set(request, { user, via });
        },
        resolve({ request }): { user: UserRow; via: AuthVia } {
          const caller = callers.get(request);
          if (!caller) throw unauthorized(); // transform always runs first; never leave a route without a caller
          return caller;
        },
      }),
    });
}
