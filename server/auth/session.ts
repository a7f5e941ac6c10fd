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

/**
 * Bearer-token sessions. A token names the user and the user's session version; it stops working when it expires,
 * when the user is deleted or disabled, when their password is reset, or when it was signed with another secret.
 *
 * Routes opt in with `{ auth: "user" }` or `{ auth: "admin" }` and receive the signed-in `user` row.
 */
export function sessions({ secret, ttl, users }: SessionOptions) {
  return new Elysia({ name: "sessions" })
    .use(jwt({ name: "jwt", secret, exp: ttl }))
    .derive({ as: "global" }, ({ jwt }) => ({
      issueToken: (user: UserRow) => jwt.sign({ sub: String(user.id), sv: user.sessionVersion }),
    }))
    .macro({
      auth: (level: "user" | "admin") => ({
        async resolve({ headers, jwt }) {
          const header = headers.authorization ?? "";
          const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
          if (!token) throw unauthorized();
          const payload = await jwt.verify(token);
          if (!payload || typeof payload.sub !== "string") throw unauthorized("Your session has expired, please sign in again");
          const user = users.byId(Number(payload.sub));
          if (!user || user.status !== "active" || payload.sv !== user.sessionVersion) {
            throw unauthorized("Your session has expired, please sign in again");
          }
          if (level === "admin" && user.role !== "admin") throw forbidden("Only an admin can do this");
          return { user };
        },
      }),
    });
}
