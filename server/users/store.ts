import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/open";
import { apiTokens, users, type UserRow } from "../db/schema";
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

export const registrationClosed = () =>
  new HttpError(403, "REGISTRATION_CLOSED", "Registration is closed: ask an administrator for an account or an invite link");
const usernameConflict = () => conflict("USERNAME_EXISTS", "Username already exists");
const emailConflict = () => conflict("EMAIL_EXISTS", "Email already exists");

/** A UNIQUE violation that slipped past the checks (two requests at once) still gets its 409. */
function mapUniqueViolation(e: unknown): never {
  const msg = String((e as Error)?.message ?? e);
  if (msg.includes("UNIQUE") && msg.includes("email")) throw emailConflict();
  if (msg.includes("UNIQUE")) throw usernameConflict();
  throw e;
}

/**
 * Users in the database. `onChange` hears every update and deletion once it is committed: a user's sessions may
 * have ended (disabled, deleted, password changed), and open push connections must learn it at once.
 */
export function createUserStore(db: Db, { onChange = () => {} }: { onChange?: (userId: number, kind: "updated" | "deleted") => void } = {}) {
  const byId = (id: number) => db.select().from(users).where(eq(users.id, id)).get();

  function assertUnique(username: string | undefined, email: string | null | undefined, exceptId = 0) {
    if (username !== undefined) {
      const taken = db.select({ id: users.id }).from(users)
        .where(and(sql`lower(${users.username}) = lower(${username})`, ne(users.id, exceptId))).get();
      if (taken) throw usernameConflict();
    }
    if (email) {
      const taken = db.select({ id: users.id }).from(users)
        .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, exceptId))).get();
      if (taken) throw emailConflict();
    }
  }

  const activeAdmins = () =>
    db.select({ n: count() }).from(users).where(and(eq(users.role, "admin"), eq(users.status, "active"))).get()!.n;

  return {
    byId,
    assertUnique,
    /** Signs in with either the username or the email, case-insensitively. */
    byLogin: (login: string) =>
      db.select().from(users)
        .where(sql`lower(${users.username}) = lower(${login}) OR lower(${users.email}) = lower(${login})`)
        .orderBy(asc(users.id)).get(),
    list: () => db.select().from(users).orderBy(asc(users.id)).all(),
    count: () => db.select({ n: count() }).from(users).get()!.n,
    activeAdmins,

    /**
     * Creates a user. `firstBecomesAdmin` makes the very first account an admin; `onlyIfFirst` refuses (403
     * REGISTRATION_CLOSED) unless it is the first. Both are decided inside the transaction, so two sign-ups racing
     * on a fresh instance cannot both get in.
     */
    create(user: NewUser, { firstBecomesAdmin = false, onlyIfFirst = false } = {}): UserRow {
      try {
        return db.transaction((tx) => {
          assertUnique(user.username, user.email);
          const isFirst = tx.select({ n: count() }).from(users).get()!.n === 0;
          if (onlyIfFirst && !isFirst) throw registrationClosed();
          const now = Date.now();
          return tx.insert(users).values({
            ...user,
            role: firstBecomesAdmin && isFirst ? "admin" : user.role,
            createdAt: now,
            updatedAt: now,
          }).returning().get();
        }, { behavior: "immediate" });
      } catch (e) {
        mapUniqueViolation(e);
      }
    },

    /**
     * Applies a patch. Refuses (409) a change that would leave the instance without an active admin.
     * Returns undefined when the user does not exist.
     *
     * Disabling ends the account's access for good, not just while it is disabled: every session is revoked (the
     * session version moves on, so re-enabling does not revive them) and its API tokens are deleted, in the same
     * transaction. Re-enabled, the user signs in again and creates new tokens.
     */
    update(id: number, patch: UserPatch): UserRow | undefined {
      let updated: UserRow | undefined;
      try {
        updated = db.transaction((tx) => {
          const current = byId(id);
          if (!current) return undefined;
          assertUnique(patch.username, patch.email, id);
          const { revokeSessions, ...fields } = patch;
          const disabling = patch.status === "disabled" && current.status !== "disabled";
          const row = tx.update(users).set({
            ...fields,
            updatedAt: Date.now(),
            ...(revokeSessions || disabling ? { sessionVersion: current.sessionVersion + 1 } : {}),
          }).where(eq(users.id, id)).returning().get();
          if (disabling) tx.delete(apiTokens).where(eq(apiTokens.userId, id)).run();
          if (current.role === "admin" && current.status === "active" && activeAdmins() === 0) {
            throw conflict("LAST_ADMIN", "At least one active admin must remain");
          }
          return row;
        }, { behavior: "immediate" });
      } catch (e) {
        mapUniqueViolation(e);
      }
      if (updated) onChange(id, "updated");
      return updated;
    },

    /** Deletes a user; refuses (409) to delete the last active admin. Returns false when there was no such user. */
    remove(id: number): boolean {
      const removed = db.transaction((tx) => {
        const current = byId(id);
        if (!current) return false;
        tx.delete(users).where(eq(users.id, id)).run();
        if (current.role === "admin" && current.status === "active" && activeAdmins() === 0) {
          throw conflict("LAST_ADMIN", "The last admin cannot be deleted");
        }
        return true;
      }, { behavior: "immediate" });
      if (removed) onChange(id, "deleted");
      return removed;
    },
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
