// A single sign-on from start to session. Each step leaves a one-use record in the database (sso_logins), so any node
// may take the next one:
//   start     → a "state" record (nonce, PKCE verifier, where to return) and the provider's sign-in URL;
//   callback  → the state record is deleted as it is read (a replayed callback finds nothing), the code traded and the
//               ID token checked (provider.ts), the account resolved (accounts.ts), a one-minute "ticket" record;
//   exchange  → the ticket deleted as it is read, a session (or the two-factor step) for its user.
// Only SHA-256 digests of the state and the ticket are stored.
import { randomBytes } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { first, type Db } from "../../db/database";
import type { UserRow } from "../../db/schema";
import type { Logger } from "../../log";
import type { UserStore } from "../../users/store";
import { hashSecret } from "../secrets";
import type { SsoAccounts } from "./accounts";
import { SsoFailure, type OidcProvider } from "./provider";
import type { SsoSettingsStore } from "./settings";

const STATE_TTL_MS = 10 * 60_000;
const TICKET_TTL_MS = 60_000;
export const CALLBACK_PATH = "/api/auth/sso/callback";

/** A path inside Vigil to go back to after signing in; anything else (another site included) becomes the dashboard. */
export function safeReturnPath(path: string | undefined): string {
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.includes("\\") || /[\u0000-\u001f]/.test(path) || path.length > 500) return "/dashboard";
  return path.startsWith("/login") || path.startsWith("/api/") ? "/dashboard" : path;
}

export function createSsoService({ db, settings, provider, accounts, users, log, now = Date.now }: {
  db: Db;
  settings: SsoSettingsStore;
  provider: OidcProvider;
  accounts: SsoAccounts;
  users: UserStore;
  log: Logger;
  now?: () => number;
}) {
  const { orm } = db;
  const { ssoLogins } = db.t;

  /** Deletes and returns a record of that kind, if it has not expired. */
  async function take(kind: "state" | "ticket", secret: string) {
    const row = await first(orm.delete(ssoLogins).where(and(eq(ssoLogins.keyHash, hashSecret(secret)), eq(ssoLogins.kind, kind))).returning());
    return row && row.expiresAt > now() ? row : undefined;
  }

  async function usableSettings() {
    const s = await settings.effective();
    if (!settings.usable(s)) throw new SsoFailure("SSO_NOT_CONFIGURED", "Single sign-on is not set up");
    return s;
  }

  return {
    /** The provider's sign-in URL for this browser, and the state it must bring back (kept in its cookie too). */
    async start(redirectUri: string, returnTo: string | undefined): Promise<{ url: string; state: string }> {
      const s = await usableSettings();
      const begun = await provider.begin(s, redirectUri);
      await orm.delete(ssoLogins).where(lt(ssoLogins.expiresAt, now()));
      await orm.insert(ssoLogins).values({
        keyHash: hashSecret(begun.state),
        kind: "state",
        nonce: begun.nonce,
        verifier: begun.verifier,
        returnTo: safeReturnPath(returnTo),
        expiresAt: now() + STATE_TTL_MS,
      });
      return { url: begun.url, state: begun.state };
    },

    /**
     * The provider sent the browser back. `query` is the callback's query string; `cookieState` the state this
     * browser was given at the start (a callback from a sign-in another browser began is refused: login CSRF).
     * Returns a one-use ticket and where to go, or throws SsoFailure / a 403 refusal.
     */
    async callback(redirectUri: string, query: URLSearchParams, cookieState: string | undefined): Promise<{ ticket: string; returnTo: string }> {
      const state = query.get("state") ?? "";
      const error = query.get("error");
      // The state goes whatever happens next: each sign-in is answered once.
      const pending = state ? await take("state", state) : undefined;
      if (error) throw new SsoFailure(error === "access_denied" ? "SSO_DENIED" : "SSO_FAILED", `The provider answered ${error}: ${query.get("error_description") ?? ""}`);
      if (!pending || !cookieState || cookieState !== state) {
        throw new SsoFailure("SSO_STATE_INVALID", pending ? "The callback came to another browser than the one that started the sign-in" : "Unknown, used or expired state");
      }
      const s = await usableSettings();
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = query.toString();
      const claims = await provider.finish(s, callbackUrl, { state, nonce: pending.nonce!, verifier: pending.verifier! });
      const user = await accounts.resolve(s, claims, now());
      const ticket = randomBytes(32).toString("base64url");
      await orm.insert(ssoLogins).values({ keyHash: hashSecret(ticket), kind: "ticket", userId: user.id, expiresAt: now() + TICKET_TTL_MS });
      log.info("single sign-on", { userId: user.id, provider: s.name });
      return { ticket, returnTo: pending.returnTo ?? "/dashboard" };
    },

    /** The user a ticket was issued for, once; undefined when unknown, used, expired, or the account was disabled since. */
    async exchange(ticket: string): Promise<UserRow | undefined> {
      const row = await take("ticket", ticket);
      const user = row?.userId ? await users.byId(row.userId) : undefined;
      return user?.status === "active" ? user : undefined;
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
