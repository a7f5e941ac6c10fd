import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import type { UserRow } from "../db/schema";
import { forbidden, unauthorized } from "../http/errors";
import type { UserStore } from "../users/store";

export interface SessionOptions {
  secret: string;
  /** e.g. "7d" */
  ttl: string;
  users: UserStore;
}

/** What a verified token says: who, which session version, and when it expires (Unix seconds). */
export interface SessionClaims {
  userId: number;
  sv: number;
  exp?: number;
}

/** The user a token's claims name, while that session is still good: active, same session version, not expired. */
export function sessionUser(users: UserStore, claims: SessionClaims, nowMs = Date.now()): UserRow | undefined {
  if (claims.exp !== undefined && claims.exp * 1000 <= nowMs) return undefined;
  const user = users.byId(claims.userId);
  if (!user || user.status !== "active" || claims.sv !== user.sessionVersion) return undefined;
  return user;
}

/**
 * Bearer-token sessions. A token names the user and the user's session version; it stops working when it expires,
 * when the user is deleted or disabled, when their password is reset, or when it was signed with another secret.
 *
 * Routes opt in with `{ auth: "user" }` or `{ auth: "admin" }` and receive the signed-in `user` row. Where no header
 * can be sent (a WebSocket from a browser), `verifySession(token)` applies the same rules.
 */
export function sessions({ secret, ttl, users }: SessionOptions) {
  type Jwt = { verify: (token?: string) => Promise<false | Record<string, unknown>> };
  async function verify(jwt: Jwt, token: string): Promise<{ user: UserRow; claims: SessionClaims } | null> {
    if (!token) return null;
    const payload = await jwt.verify(token);
    if (!payload || typeof payload.sub !== "string") return null;
    const claims: SessionClaims = {
      userId: Number(payload.sub),
      sv: payload.sv as number,
      exp: typeof payload.exp === "number" ? payload.exp : undefined,
    };
    const user = sessionUser(users, claims);
    return user ? { user, claims } : null;
  }

  return new Elysia({ name: "sessions" })
    .use(jwt({ name: "jwt", secret, exp: ttl }))
    .derive({ as: "global" }, ({ jwt }) => ({
      issueToken: (user: UserRow) => jwt.sign({ sub: String(user.id), sv: user.sessionVersion }),
      verifySession: (token: string) => verify(jwt, token),
    }))
    .macro({
      auth: (level: "user" | "admin") => ({
        // request.headers, not the parsed `headers`: Elysia infers what to parse from the handler's source, which
        // minification (the compiled executable) hides, leaving `headers` undefined there.
        async resolve({ request, jwt }) {
          const header = request.headers.get("authorization") ?? "";
          const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
          if (!token) throw unauthorized();
          const session = await verify(jwt, token);
          if (!session) throw unauthorized("Your session has expired, please sign in again");
          const { user } = session;
          if (level === "admin" && user.role !== "admin") throw forbidden("Only an admin can do this");
          return { user };
        },
      }),
    });
}
