import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../../db/schema";

// Single sign-on (OpenID Connect): which provider identity is which Vigil account, and sign-ins under way. Times are
// Unix ms.

/**
 * A provider's account (issuer + subject: the stable `sub` claim) linked to a Vigil user, made at the first sign-in
 * (matched by a verified e-mail address, or a new account). Later sign-ins find the user here even if the e-mail
 * address changed at the provider.
 */
export const ssoIdentities = sqliteTable(
  "sso_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("sso_identities_user").on(t.userId)],
);

/**
 * One-use records of sign-ins under way, kept in the database so any node can finish what another began:
 * - kind "state": a sign-in sent to the provider (its state's SHA-256 as the key; the nonce and PKCE verifier the
 *   callback checks the answer with; where to go afterwards), deleted as the callback reads it — a replayed callback
 *   finds nothing;
 * - kind "ticket": the provider's answer was good; the browser trades the ticket (its SHA-256 here) once, within a
 *   minute, for a session (POST /api/auth/sso/exchange).
 */
export const ssoLogins = sqliteTable(
  "sso_logins",
  {
    keyHash: text("key_hash").primaryKey(),
    kind: text("kind", { enum: ["state", "ticket"] }).notNull(),
    nonce: text("nonce"),
    verifier: text("verifier"),
    returnTo: text("return_to"),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sso_logins_expires").on(t.expiresAt)],
);
