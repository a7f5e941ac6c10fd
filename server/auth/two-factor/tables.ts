import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../../db/schema";

// Two-factor sign-in (TOTP): each user's secret, single-use recovery codes and spent sign-in challenges. Times are
// Unix ms.

/**
 * A user's TOTP secret (base32). Pending until confirmed with a first code (`users.two_factor_at` is set then).
 * `lastStep` is the 30 s step of the last code accepted: the same code cannot be used twice.
 */
export const userTotp = sqliteTable("user_totp", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  lastStep: integer("last_step").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});

/** Ten per enrolment, each usable once instead of a code; only their SHA-256 is kept. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("recovery_codes_user").on(t.userId)],
);

/**
 * Sign-in challenges (the password step's token for /api/auth/login/2fa) that have produced a session, by their id
 * (`jti`): a challenge signs in once. Kept until the challenge would have expired anyway, in the database so every
 * node of a cluster refuses the same ones.
 */
export const usedChallenges = sqliteTable(
  "used_challenges",
  {
    jti: text("jti").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("used_challenges_expires").on(t.expiresAt)],
);
