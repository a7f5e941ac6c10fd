// Who may create an account. The first account registers freely (and becomes the admin); after that registration
// is closed unless an admin opens it (an instance setting), or the newcomer brings a one-time invite link an admin
// made (single use, expiring, stored only as its hash). Admins can also create accounts directly (users/routes.ts).
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { first, type Db, type Orm } from "../db/database";
import type { UserRow } from "../db/schema";
import { HttpError } from "../http/errors";
import { hashSecret, newSecret } from "../auth/secrets";
import type { Role } from "../users/public";
import { ACCOUNTS_LOCK, registrationClosed, type NewUser, type UserStore } from "../users/store";
import type { InviteRow } from "./tables";

const OPEN_KEY = "registration.open";
const ROLE_KEY = "registration.role";
/** The role of accounts made through open registration unless an admin chose another: the least one. */
export const DEFAULT_REGISTRATION_ROLE: Role = "viewer";
/** The role an invite gives unless the admin chose another: the least one, as the form offers first. */
export const DEFAULT_INVITE_ROLE: Role = "viewer";
const REGISTRATION_ROLES: readonly Role[] = ["admin", "editor", "viewer"];
const HOUR = 3_600_000;
/** Invite lifetimes an admin may choose, in hours: an hour to 30 days; 7 days by default. */
export const INVITE_HOURS = { min: 1, max: 720, default: 168 };

/** An invite as the API shows it: never its token (shown once, at creation) or hash. */
export interface PublicInvite {
  id: number;
  role: Role;
  createdBy: number | null;
  createdAt: number;
  expiresAt: number;
}

const toPublicInvite = (row: InviteRow): PublicInvite => ({
  id: row.id,
  role: row.role,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

/**
 * What an invite link's holder may learn before registering (POST /api/registration/invites/check): whether it can
 * still be used and, if so, the role it gives and when it expires; nothing about who made it or about other invites.
 * A revoked invite is deleted, so it answers exactly as an unknown token does ("invalid").
 */
export type InviteCheck = { state: "valid"; role: Role; expiresAt: number } | { state: "used" | "expired" | "invalid" };

const inviteInvalid = () => new HttpError(403, "INVITE_INVALID", "This invite link is not valid, already used or expired");

export function createRegistration({ db, users, now = Date.now }: { db: Db; users: UserStore; now?: () => number }) {
  const { orm } = db;
  const { settings, invites } = db.t;
  const isOpen = async (q: Orm = orm) => (await first(q.select().from(settings).where(eq(settings.key, OPEN_KEY))))?.value === "true";
  const openRole = async (q: Orm = orm): Promise<Role> => {
    const value = (await first(q.select().from(settings).where(eq(settings.key, ROLE_KEY))))?.value as Role | undefined;
    return value && REGISTRATION_ROLES.includes(value) ? value : DEFAULT_REGISTRATION_ROLE;
  };
  const pendingInvite = (token: string, q: Orm = orm) =>
    first(q.select().from(invites)
      .where(and(eq(invites.tokenHash, hashSecret(token)), isNull(invites.usedAt), gt(invites.expiresAt, now()))));

  return {
    isOpen: () => isOpen(),
    /** Anyone may register right now: the instance has no account yet, or an admin opened registration. */
    isOpenToAnyone: async () => (await isOpen()) || (await users.count()) === 0,

    async setOpen(open: boolean): Promise<void> {
      await orm.insert(settings).values({ key: OPEN_KEY, value: String(open) })
        .onConflictDoUpdate({ target: settings.key, set: { value: String(open) } });
    },
    /** The role open registration gives (the first account is the admin whatever it says). */
    role: () => openRole(),
    async setRole(role: Role): Promise<void> {
      await orm.insert(settings).values({ key: ROLE_KEY, value: role }).onConflictDoUpdate({ target: settings.key, set: { value: role } });
    },

    async createInvite(createdBy: number, role: Role, hours = INVITE_HOURS.default): Promise<{ token: string; invite: PublicInvite }> {
      const token = newSecret("vgl_inv");
      const at = now();
      const [row] = await orm.insert(invites)
        .values({ tokenHash: hashSecret(token), role, createdBy, createdAt: at, expiresAt: at + hours * HOUR })
        .returning();
      return { token, invite: toPublicInvite(row!) };
    },

    /** Invites not used yet and not expired, oldest first. */
    pendingInvites: async (): Promise<PublicInvite[]> =>
      (await orm.select().from(invites).where(and(isNull(invites.usedAt), gt(invites.expiresAt, now()))).orderBy(asc(invites.id)))
        .map(toPublicInvite),

    /** One lookup by the token's hash (the unique index): cheap enough to answer every page that opens a link. */
    async checkInvite(token: string): Promise<InviteCheck> {
      const row = await first(orm.select().from(invites).where(eq(invites.tokenHash, hashSecret(token))));
      if (!row) return { state: "invalid" };
      if (row.usedAt !== null) return { state: "used" };
      if (row.expiresAt <= now()) return { state: "expired" };
      return { state: "valid", role: row.role, expiresAt: row.expiresAt };
    },

    /** Deletes an invite that has not been used; false when there is none. */
    revokeInvite: async (id: number): Promise<boolean> =>
      (await orm.delete(invites).where(and(eq(invites.id, id), isNull(invites.usedAt))).returning({ id: invites.id })).length > 0,

    /**
     * Refuses (403) a sign-up that may not happen, before anything costly: closed registration without an invite,
     * or an invite that is unknown, used or expired. The decision is made again, atomically, by `register`.
     */
    async admit(invite: string | undefined): Promise<void> {
      if (invite !== undefined) {
        if (!(await pendingInvite(invite))) throw inviteInvalid();
      } else if (!(await isOpen()) && (await users.count()) > 0) {
        throw registrationClosed();
      }
    },

    /**
     * Creates the account (its password already hashed): with an invite (spent here, once), through open
     * registration, or as the first one. One transaction under the accounts lock decides it all, so two sign-ups
     * with one link (or two first sign-ups) cannot both win, on any node; an account that cannot be created (a taken
     * username, say) rolls the invite's use back, so the newcomer can try again.
     */
    register(user: Omit<NewUser, "role">, invite: string | undefined): Promise<UserRow> {
      return db.tx(async (tx) => {
        if (invite === undefined) return users.insert(tx, { ...user, role: await openRole(tx) }, { firstBecomesAdmin: true, onlyIfFirst: !(await isOpen(tx)) });
        const row = await pendingInvite(invite, tx);
        if (!row) throw inviteInvalid();
        const created = await users.insert(tx, { ...user, role: row.role }, { firstBecomesAdmin: true });
        const spent = await tx.update(invites).set({ usedAt: now(), usedBy: created.id })
          .where(and(eq(invites.id, row.id), isNull(invites.usedAt))).returning({ id: invites.id });
        if (spent.length === 0) throw inviteInvalid();
        return created;
      }, { lock: ACCOUNTS_LOCK });
    },
  };
}

export type Registration = ReturnType<typeof createRegistration>;
