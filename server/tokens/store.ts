// API tokens in the database: create (the secret is returned once, only its hash kept), list, revoke, and the lookup
// the auth guard runs for every request that brings one.
import { and, asc, count, eq, sql } from "drizzle-orm";
import { hashSecret, newSecret } from "../auth/secrets";
import { first, isUniqueViolation, type Db } from "../db/database";
import type { UserRow } from "../db/schema";
import { conflict } from "../http/errors";
import { API_TOKEN_MARKER, TOKENS_PER_USER_MAX, type CreatedApiToken, type PublicApiToken, type TokenScope } from "./public";
import type { ApiTokenRow } from "./tables";

const DAY = 86_400_000;
/** last_used_at is written at most this often per token. */
const TOUCH_EVERY_MS = 60_000;
/** How much of the secret after the marker the list shows. */
const PREFIX_CHARS = 8;

/** What a presented secret is worth: the user it acts for, or why it is refused. */
export type TokenCheck = { ok: true; user: UserRow; tokenId: number; scope: TokenScope } | { ok: false; reason: "invalid" | "expired" };

const nameTaken = () => conflict("TOKEN_NAME_EXISTS", "You already have a token with this name");

export function createTokenStore(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { apiTokens, users } = db.t;

  const toPublic = (row: ApiTokenRow, at = now()): PublicApiToken => ({
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    expired: row.expiresAt !== null && row.expiresAt <= at,
  });

  return {
    /** A user's tokens, oldest first; expired ones stay listed (flagged) until revoked. */
    list: async (userId: number): Promise<PublicApiToken[]> => {
      const at = now();
      return (await orm.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(asc(apiTokens.id))).map((r) => toPublic(r, at));
    },

    /**
     * Creates a token (name already trimmed and checked). Refuses (409) a name the user already uses and a user at
     * the cap; both decided inside one transaction under a lock of the user's, so two requests at once (on any
     * node) cannot get past them.
     */
    async create(userId: number, name: string, expiresInDays: number | null, scope: TokenScope): Promise<CreatedApiToken> {
      const secret = newSecret("vgl_api");
      const at = now();
      try {
        const row = await db.tx(async (tx) => {
          const taken = await first(tx.select({ id: apiTokens.id }).from(apiTokens)
            .where(and(eq(apiTokens.userId, userId), sql`lower(${apiTokens.name}) = lower(${name})`)).limit(1));
          if (taken) throw nameTaken();
          const n = Number((await first(tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId))))!.n);
          if (n >= TOKENS_PER_USER_MAX) {
            throw conflict("TOKEN_LIMIT", `You already have ${TOKENS_PER_USER_MAX} API tokens: revoke one you no longer use first`);
          }
          const [inserted] = await tx.insert(apiTokens).values({
            userId,
            name,
            scope,
            tokenHash: hashSecret(secret),
            prefix: secret.slice(0, API_TOKEN_MARKER.length + PREFIX_CHARS),
            createdAt: at,
            expiresAt: expiresInDays === null ? null : at + expiresInDays * DAY,
          }).returning();
          return inserted!;
        }, { lock: `api-tokens:${userId}` });
        return { token: toPublic(row, at), secret };
      } catch (e) {
        // The unique index still catches a race the check above could not see.
        if (isUniqueViolation(e, "api_tokens_user_name_unique")) throw nameTaken();
        throw e;
      }
    },

    /** Revokes one of the user's own tokens; false when they have none with this id (someone else's included). */
    remove: async (userId: number, id: number): Promise<boolean> =>
      (await orm.delete(apiTokens).where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId))).returning({ id: apiTokens.id })).length > 0,

    /**
     * The user a presented secret acts for: it must be a token that exists (not revoked), has not expired, and
     * whose user is active. Notes the use (at most once a minute per token). Run on every API call made with a
     * token: one indexed lookup (token_hash is unique) with the user joined in.
     */
    async check(secret: string): Promise<TokenCheck> {
      const row = await first(
        orm.select({ id: apiTokens.id, scope: apiTokens.scope, expiresAt: apiTokens.expiresAt, lastUsedAt: apiTokens.lastUsedAt, user: users })
          .from(apiTokens)
          .innerJoin(users, eq(users.id, apiTokens.userId))
          .where(eq(apiTokens.tokenHash, hashSecret(secret))),
      );
      if (!row || row.user.status !== "active") return { ok: false, reason: "invalid" };
      const at = now();
      if (row.expiresAt !== null && row.expiresAt <= at) return { ok: false, reason: "expired" };
      if (row.lastUsedAt === null || at - row.lastUsedAt >= TOUCH_EVERY_MS) {
        await orm.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, row.id));
      }
      return { ok: true, user: row.user, tokenId: row.id, scope: row.scope };
    },
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;
