// Which Vigil account a provider's user is: the account linked to their (issuer, subject) before; else the account
// whose e-mail address the provider says is theirs and verified; else a new account (when the admin allows it).
// Roles follow the groups claim at every sign-in when groups are mapped.
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { first, isUniqueViolation, type Db } from "../../db/database";
import type { UserRow } from "../../db/schema";
import { HttpError } from "../../http/errors";
import type { Logger } from "../../log";
import type { Role } from "../../users/public";
import { ACCOUNTS_LOCK, type UserStore } from "../../users/store";
import type { PasswordHasher } from "../passwords";
import type { ProviderClaims } from "./provider";
import type { SsoSettings } from "./settings";

const RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

/** The role the groups give (the highest), or undefined when no group is mapped at all. */
export function roleFromGroups(s: Pick<SsoSettings, "adminGroups" | "editorGroups" | "viewerGroups" | "defaultRole">, groups: string[]): Role | undefined {
  const mapped: [Role, string[]][] = [["admin", s.adminGroups], ["editor", s.editorGroups], ["viewer", s.viewerGroups]];
  if (mapped.every(([, g]) => g.length === 0)) return undefined;
  const have = new Set(groups);
  const matched = mapped.filter(([, g]) => g.some((name) => have.has(name))).map(([role]) => role);
  return matched.sort((a, b) => RANK[b] - RANK[a])[0] ?? s.defaultRole;
}

/** A username from what the provider says (3-32 characters, no spaces or control characters). */
export function usernameBase(claims: Pick<ProviderClaims, "preferredUsername" | "email" | "name" | "sub">): string {
  const candidates = [claims.preferredUsername, claims.email?.split("@")[0], claims.name, `sso-${claims.sub}`];
  for (const c of candidates) {
    const clean = (c ?? "").replace(/[\s\u0000-\u001f\u007f]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 28);
    if (clean.length >= 3) return clean;
  }
  return "sso-user";
}

export const ssoRefusal = (code: string, message: string) => new HttpError(403, code, message);

export function createSsoAccounts({ db, users, passwords, log }: { db: Db; users: UserStore; passwords: PasswordHasher; log: Logger }) {
  const { orm } = db;
  const { ssoIdentities, users: usersTable } = db.t;

  const linked = async (issuer: string, subject: string) =>
    first(orm.select({ userId: ssoIdentities.userId }).from(ssoIdentities)
      .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject))));

  const byEmail = (email: string) =>
    first(orm.select().from(usersTable).where(sql`lower(${usersTable.email}) = lower(${email})`).limit(1));

  async function link(issuer: string, subject: string, userId: number, at: number) {
    await orm.insert(ssoIdentities).values({ issuer, subject, userId, createdAt: at, lastSeenAt: at })
      .onConflictDoUpdate({ target: [ssoIdentities.issuer, ssoIdentities.subject], set: { userId, lastSeenAt: at } });
  }

  /** A new account for a first sign-in: a free username from the claims, a random password nobody knows. */
  async function create(s: SsoSettings, claims: ProviderClaims, role: Role, issuer: string, at: number): Promise<UserRow> {
    const passwordHash = await passwords.hash(randomBytes(32).toString("base64url"));
    const email = claims.emailVerified ? (claims.email ?? null) : null;
    const base = usernameBase(claims);
    return db.tx(async (tx) => {
      let username = base;
      for (let n = 2; (await first(tx.select({ id: usersTable.id }).from(usersTable).where(sql`lower(${usersTable.username}) = lower(${username})`))); n++) {
        username = `${base}-${n}`;
      }
      const user = await users.insert(tx, { username, email, passwordHash, role });
      await tx.insert(ssoIdentities).values({ issuer, subject: claims.sub, userId: user.id, createdAt: at, lastSeenAt: at });
      log.info("single sign-on created an account", { userId: user.id, username, role, provider: s.name });
      return user;
    }, { lock: ACCOUNTS_LOCK });
  }

  return {
    /** Whether this user has signed in through the provider (any provider, without `issuer`) at least once. */
    async hasIdentity(userId: number, issuer?: string): Promise<boolean> {
      const which = issuer === undefined ? eq(ssoIdentities.userId, userId) : and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.issuer, issuer));
      return (await first(orm.select({ userId: ssoIdentities.userId }).from(ssoIdentities).where(which).limit(1))) !== undefined;
    },

    /** The account this provider user signs in as; refusals are 403s with a code the sign-in page explains. */
    async resolve(s: SsoSettings, claims: ProviderClaims, now = Date.now()): Promise<UserRow> {
      const issuer = s.issuer;
      const mapped = roleFromGroups(s, claims.groups);
      let user: UserRow | undefined;
      const link0 = await linked(issuer, claims.sub);
      if (link0) user = await users.byId(link0.userId);
      if (!user && claims.email) {
        const owner = await byEmail(claims.email);
        if (owner && !claims.emailVerified) {
          throw ssoRefusal("SSO_EMAIL_UNVERIFIED", "Your provider has not verified your e-mail address, so it cannot be matched to your Vigil account");
        }
        if (owner) {
          user = owner;
          log.info("single sign-on linked an account by its verified e-mail", { userId: owner.id, provider: s.name });
        }
      }
      if (!user) {
        if (!s.createAccounts) throw ssoRefusal("SSO_NO_ACCOUNT", "No Vigil account matches your e-mail address: ask an admin for one");
        try {
          user = await create(s, claims, mapped ?? s.defaultRole, issuer, now);
        } catch (e) {
          // The same person's other tab created it a moment ago.
          const again = isUniqueViolation(e) ? await linked(issuer, claims.sub) : undefined;
          if (!again) throw e;
          user = await users.byId(again.userId);
        }
        if (!user) throw ssoRefusal("SSO_NO_ACCOUNT", "No Vigil account matches your e-mail address: ask an admin for one");
      }
      if (user.status !== "active") throw ssoRefusal("SSO_ACCOUNT_DISABLED", "Your Vigil account is disabled: ask an admin");
      await link(issuer, claims.sub, user.id, now);
      if (mapped && mapped !== user.role) {
        try {
          user = (await users.update(user.id, { role: mapped })) ?? user;
        } catch (e) {
          // The last active admin keeps the role (users.update refuses): an instance is never left without one.
          if (!(e instanceof HttpError && e.code === "LAST_ADMIN")) throw e;
          log.warn("single sign-on kept the last admin's role though the groups map another", { userId: user.id, mapped });
        }
      }
      return user;
    },
  };
}

export type SsoAccounts = ReturnType<typeof createSsoAccounts>;
