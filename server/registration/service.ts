// Who may create an account. The first account registers freely (and becomes the admin); after that registration
// is closed unless an admin opens it (an instance setting), or the newcomer brings a one-time invite link an admin
// made (single use, expiring, stored only as its hash). Admins can also create accounts directly (users/routes.ts).
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/open";
import { settings, type UserRow } from "../db/schema";
import { HttpError } from "../http/errors";
import { hashSecret, newSecret } from "../auth/secrets";
import type { Role } from "../users/public";
import { registrationClosed, type NewUser, type UserStore } from "../users/store";
import { invites, type InviteRow } from "./tables";

const OPEN_KEY = "registration.open";
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
  const isOpen = () => db.select().from(settings).where(eq(settings.key, OPEN_KEY)).get()?.value === "true";
  const pendingInvite = (token: string) =>
    db.select().from(invites)
      .where(and(eq(invites.tokenHash, hashSecret(token)), isNull(invites.usedAt), gt(invites.expiresAt, now())))
      .get();

  return {
    isOpen,
    /** Anyone may register right now: the instance has no account yet, or an admin opened registration. */
    isOpenToAnyone: () => isOpen() || users.count() === 0,

    setOpen(open: boolean) {
      db.insert(settings).values({ key: OPEN_KEY, value: String(open) })
        .onConflictDoUpdate({ target: settings.key, set: { value: String(open) } }).run();
    },

    createInvite(createdBy: number, role: Role, hours = INVITE_HOURS.default): { token: string; invite: PublicInvite } {
      const token = newSecret("vgl_inv");
      const at = now();
      const row = db.insert(invites)
        .values({ tokenHash: hashSecret(token), role, createdBy, createdAt: at, expiresAt: at + hours * HOUR })
        .returning().get();
      return { token, invite: toPublicInvite(row) };
    },

    /** Invites not used yet and not expired, oldest first. */
    pendingInvites: (): PublicInvite[] =>
      db.select().from(invites).where(and(isNull(invites.usedAt), gt(invites.expiresAt, now()))).orderBy(asc(invites.id)).all()
        .map(toPublicInvite),

    /** One lookup by the token's hash (the unique index): cheap enough to answer every page that opens a link. */
    checkInvite(token: string): InviteCheck {
      const row = db.select().from(invites).where(eq(invites.tokenHash, hashSecret(token))).get();
      if (!row) return { state: "invalid" };
      if (row.usedAt !== null) return { state: "used" };
      if (row.expiresAt <= now()) return { state: "expired" };
      return { state: "valid", role: row.role, expiresAt: row.expiresAt };
    },

    /** Deletes an invite that has not been used; false when there is none. */
    revokeInvite: (id: number): boolean =>
      db.delete(invites).where(and(eq(invites.id, id), isNull(invites.usedAt))).returning({ id: invites.id }).all().length > 0,

    /**
     * Refuses (403) a sign-up that may not happen, before anything costly: closed registration without an invite,
     * or an invite that is unknown, used or expired. The decision is made again, atomically, by `register`.
     */
    admit(invite: string | undefined) {
      if (invite !== undefined) {
        if (!pendingInvite(invite)) throw inviteInvalid();
      } else if (!isOpen() && users.count() > 0) {
        throw registrationClosed();
      }
    },

    /** Creates the account: with an invite (spent here, once), through open registration, or as the first one. */
    register(user: Omit<NewUser, "role">, invite: string | undefined): UserRow {
      if (invite === undefined) return users.create({ ...user, role: "user" }, { firstBecomesAdmin: true, onlyIfFirst: !isOpen() });
      // Spend the invite first (one UPDATE, so two sign-ups with one link cannot both win); give it back if the
      // account cannot be created (a taken username, say), so the newcomer can try again.
      const row = pendingInvite(invite);
      const spent = row && db.update(invites).set({ usedAt: now() })
        .where(and(eq(invites.id, row.id), isNull(invites.usedAt))).returning({ id: invites.id }).all().length > 0;
      if (!row || !spent) throw inviteInvalid();
      try {
        const created = users.create({ ...user, role: row.role }, { firstBecomesAdmin: true });
        db.update(invites).set({ usedBy: created.id }).where(eq(invites.id, row.id)).run();
        return created;
      } catch (e) {
        db.update(invites).set({ usedAt: null }).where(eq(invites.id, row.id)).run();
        throw e;
      }
    },
  };
}

export type Registration = ReturnType<typeof createRegistration>;
