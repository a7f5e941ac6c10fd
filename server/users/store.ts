import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { first, isUniqueViolation, type Db, type Orm } from "../db/database";
import type { UserRow } from "../db/schema";
import { conflict, HttpError } from "../http/errors";
import type { Role, UserStatus } from "./public";

export interface NewUser {
  username: string;
  email: string | null;
  passwordHash: string;
  role: Role;
}

export interface UserPatch {
  username?: string;
  email?: string | null;
  role?: Role;
  status?: UserStatus;
  passwordHash?: string;
  /** Revoke every token issued so far. */
  revokeSessions?: boolean;
}

export interface CreateOptions {
  /** The very first account becomes an admin, whatever `role` says. */
  firstBecomesAdmin?: boolean;
  /** Refuse (403 REGISTRATION_CLOSED) unless it is the first account. */
  onlyIfFirst?: boolean;
}

/**
 * The lock every change to the set of accounts or their roles takes (Db.tx): "the first account becomes the admin",
 * "an invite is used once" and "at least one active admin remains" are read-then-write rules, which must hold when
 * several requests (on several nodes, on PostgreSQL) run at once.
 */
export const ACCOUNTS_LOCK = "accounts";

export const registrationClosed = () =>
  new HttpError(403, "REGISTRATION_CLOSED", "Registration is closed: ask an administrator for an account or an invite link");
const usernameConflict = () => conflict("USERNAME_EXISTS", "Username already exists");
const emailConflict = () => conflict("EMAIL_EXISTS", "Email already exists");

/** A UNIQUE violation that slipped past the checks (two requests at once) still gets its 409. */
function mapUniqueViolation(e: unknown): never {
  if (isUniqueViolation(e, "email")) throw emailConflict();
  if (isUniqueViolation(e)) throw usernameConflict();
  throw e;
}

/**
 * Users in the database. `onChange` hears every update (with the updated row) and deletion once it is committed: a
 * user's sessions may have ended (disabled, deleted, password changed), and open push connections must learn it at
 * once.
 */
export function createUserStore(
  db: Db,
  { onChange = () => {} }: { onChange?: (userId: number, kind: "updated" | "deleted", user?: UserRow) => void } = {},
) {
  const { orm } = db;
  const { users, apiTokens } = db.t;

  const byId = (id: number, q: Orm = orm) => first(q.select().from(users).where(eq(users.id, id)));

  async function assertUnique(username: string | undefined, email: string | null | undefined, exceptId = 0, q: Orm = orm) {
    if (username !== undefined) {
      const taken = await first(q.select({ id: users.id }).from(users)
        .where(and(sql`lower(${users.username}) = lower(${username})`, ne(users.id, exceptId))).limit(1));
      if (taken) throw usernameConflict();
    }
    if (email) {
      const taken = await first(q.select({ id: users.id }).from(users)
        .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, exceptId))).limit(1));
      if (taken) throw emailConflict();
    }
  }

  const countWhere = async (q: Orm, where?: ReturnType<typeof and>) => Number((await first(q.select({ n: count() }).from(users).where(where)))!.n);
  const activeAdmins = (q: Orm = orm) => countWhere(q, and(eq(users.role, "admin"), eq(users.status, "active")));

  /**
   * Inserts a user inside a transaction that holds ACCOUNTS_LOCK (the caller's): for registration, which spends an
   * invite in the same transaction.
   */
  async function insert(tx: Orm, user: NewUser, { firstBecomesAdmin = false, onlyIfFirst = false }: CreateOptions = {}): Promise<UserRow> {
    await assertUnique(user.username, user.email, 0, tx);
    const isFirst = (await countWhere(tx)) === 0;
    if (onlyIfFirst && !isFirst) throw registrationClosed();
    const now = Date.now();
    try {
      const [row] = await tx.insert(users).values({
        ...user,
        role: firstBecomesAdmin && isFirst ? "admin" : user.role,
        createdAt: now,
        updatedAt: now,
      }).returning();
      return row!;
    } catch (e) {
      mapUniqueViolation(e);
    }
  }

  return {
    byId: (id: number) => byId(id),
    /** Checks (outside any transaction) that the names are free: a cheap refusal before hashing a password. */
    assertUnique: (username: string | undefined, email: string | null | undefined, exceptId = 0) => assertUnique(username, email, exceptId),
    /**
     * Signs in with either the username or the email, case-insensitively. A NUL character matches nobody (no name
     * holds one; PostgreSQL would refuse the query).
     */
    byLogin: async (login: string) =>
      login.includes("\u0000") ? undefined : first(orm.select().from(users)
        .where(sql`lower(${users.username}) = lower(${login}) OR lower(${users.email}) = lower(${login})`)
        .orderBy(asc(users.id)).limit(1)),
    list: () => orm.select().from(users).orderBy(asc(users.id)),
    count: () => countWhere(orm),
    activeAdmins: () => activeAdmins(),
    insert,

    /**
     * Creates a user (its password already hashed: nothing slow runs in the transaction). `firstBecomesAdmin` makes
     * the very first account an admin; `onlyIfFirst` refuses (403 REGISTRATION_CLOSED) unless it is the first. Both
     * are decided inside the transaction under ACCOUNTS_LOCK, so two sign-ups racing on a fresh instance cannot both
     * get in, whichever node they reach.
     */
    create(user: NewUser, options: CreateOptions = {}): Promise<UserRow> {
      return db.tx((tx) => insert(tx, user, options), { lock: ACCOUNTS_LOCK });
    },

    /**
     * Applies a patch. Refuses (409) a change that would leave the instance without an active admin.
     * Returns undefined when the user does not exist.
     *
     * Disabling ends the account's access for good, not just while it is disabled: every session is revoked (the
     * session version moves on, so re-enabling does not revive them) and its API tokens are deleted, in the same
     * transaction. Re-enabled, the user signs in again and creates new tokens.
     */
    async update(id: number, patch: UserPatch): Promise<UserRow | undefined> {
      let updated: UserRow | undefined;
      try {
        updated = await db.tx(async (tx) => {
          const current = await byId(id, tx);
          if (!current) return undefined;
          await assertUnique(patch.username, patch.email, id, tx);
          const { revokeSessions, ...fields } = patch;
          const disabling = patch.status === "disabled" && current.status !== "disabled";
          const row = await first(tx.update(users).set({
            ...fields,
            updatedAt: Date.now(),
            ...(revokeSessions || disabling ? { sessionVersion: current.sessionVersion + 1 } : {}),
          }).where(eq(users.id, id)).returning());
          if (disabling) await tx.delete(apiTokens).where(eq(apiTokens.userId, id));
          if (current.role === "admin" && current.status === "active" && (await activeAdmins(tx)) === 0) {
            throw conflict("LAST_ADMIN", "At least one active admin must remain");
          }
          return row;
        }, { lock: ACCOUNTS_LOCK });
      } catch (e) {
        mapUniqueViolation(e);
      }
      if (updated) onChange(id, "updated", updated);
      return updated;
    },

    /** Deletes a user; refuses (409) to delete the last active admin. Returns false when there was no such user. */
    async remove(id: number): Promise<boolean> {
      const removed = await db.tx(async (tx) => {
        const current = await byId(id, tx);
        if (!current) return false;
        await tx.delete(users).where(eq(users.id, id));
        if (current.role === "admin" && current.status === "active" && (await activeAdmins(tx)) === 0) {
          throw conflict("LAST_ADMIN", "The last admin cannot be deleted");
        }
        return true;
      }, { lock: ACCOUNTS_LOCK });
      if (removed) onChange(id, "deleted");
      return removed;
    },
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
