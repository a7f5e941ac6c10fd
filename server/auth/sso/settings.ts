// The single sign-on provider's settings: from the server's flags/environment (--oidc-*: they win, and the UI shows
// them read-only), else from the admin's settings (settings table, key "sso.settings", JSON). Whether passwords may
// still sign in is the admin's choice unless --password-login forces it (the way back in when the provider is gone).
import { eq } from "drizzle-orm";
import { first, type Db } from "../../db/database";
import type { Role } from "../../users/public";

export interface SsoSettings {
  enabled: boolean;
  /** The button's label: "Sign in with {name}". */
  name: string;
  issuer: string;
  clientId: string;
  /** "" for a public client (PKCE alone). Never sent to a browser. */
  clientSecret: string;
  /** Space-separated; must include openid. */
  scopes: string;
  /** Create an account at the first sign-in of someone no account matches (else they are refused). */
  createAccounts: boolean;
  /** The role of accounts it creates, and of anyone no group maps when groups are mapped. */
  defaultRole: Role;
  /** The claim listing the user's groups (ID token or userinfo). */
  groupsClaim: string;
  adminGroups: string[];
  editorGroups: string[];
  viewerGroups: string[];
  /** false: only SSO signs in (never while SSO is off or unconfigured). */
  passwordLogin: boolean;
}

export type SsoProviderSettings = Omit<SsoSettings, "passwordLogin">;

export const SSO_DEFAULTS: SsoSettings = {
  enabled: false,
  name: "SSO",
  issuer: "",
  clientId: "",
  clientSecret: "",
  scopes: "openid email profile",
  createAccounts: true,
  defaultRole: "viewer",
  groupsClaim: "groups",
  adminGroups: [],
  editorGroups: [],
  viewerGroups: [],
  passwordLogin: true,
};

/** The provider fields (everything but passwordLogin): what flags set as a whole. */
export const PROVIDER_FIELDS = Object.keys(SSO_DEFAULTS).filter((k) => k !== "passwordLogin") as (keyof SsoProviderSettings)[];

const KEY = "sso.settings";
const ROLES: readonly Role[] = ["admin", "editor", "viewer"];
/** Control and bidirectional-override characters: nothing a name, group or id holds (shown on the sign-in page). */
const CONTROL = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether the issuer is on this machine: plain http is allowed there only (a provider under test or development). */
export const isLoopbackUrl = (url: URL) => LOOPBACK.test(url.hostname);

/** What is wrong with an issuer URL, or null. */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return "The issuer must be a URL, e.g. https://accounts.example.com/realms/main";
  }
  if (url.search || url.hash || url.username || url.password) return "The issuer URL has no query, fragment or credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackUrl(url)) return null;
  return "The issuer must use https (plain http only on this machine: localhost, 127.0.0.1)";
}

/** What is wrong with settings about to be used, or null. Only enabled settings need a provider. */
export function settingsProblem(s: SsoSettings): string | null {
  if (!s.name.trim() || s.name.length > 40 || CONTROL.test(s.name)) return "The name must be 1-40 characters";
  if (!ROLES.includes(s.defaultRole)) return "The default role must be admin, editor or viewer";
  if (!/^[\w.:/-]{1,100}$/.test(s.groupsClaim)) return "The groups claim must be a claim name, e.g. groups";
  for (const groups of [s.adminGroups, s.editorGroups, s.viewerGroups]) {
    if (groups.length > 50 || groups.some((g) => !g.trim() || g.length > 200 || CONTROL.test(g))) return "Groups are up to 50 names of 1-200 characters";
  }
  if (s.scopes.length > 500 || !s.scopes.split(/\s+/).includes("openid")) return "The scopes must include openid";
  if (s.clientId.length > 500 || s.clientSecret.length > 2000 || CONTROL.test(s.clientId + s.clientSecret + s.scopes)) return "The client id or secret is too long";
  if (!s.enabled) return null;
  if (!s.issuer) return "The issuer URL is required";
  if (!s.clientId) return "The client id is required";
  return issuerProblem(s.issuer);
}

export const splitGroups = (text: string | undefined): string[] =>
  (text ?? "").split(",").map((g) => g.trim()).filter(Boolean);

export interface SsoFlags {
  /** The provider as the flags set it (enabled), when --oidc-issuer is given. */
  provider?: SsoProviderSettings;
  /** --password-login: true or false forces it; undefined leaves it to the admin. */
  passwordLogin?: boolean;
}

export interface EffectiveSsoSettings extends SsoSettings {
  source: "settings" | "flags";
  /** --password-login decides, whatever the setting says. */
  passwordLoginForced: boolean;
}

/** The settings as an admin reads them (GET/PUT /api/auth/sso/settings): never the secret, only whether one is set. */
export interface SsoSettingsReply {
  settings: Omit<SsoSettings, "clientSecret"> & { clientSecretSet: boolean };
  source: EffectiveSsoSettings["source"];
  passwordLoginForced: boolean;
  /** The address to register at the provider as the redirect (callback) URI. */
  redirectUri: string;
}

export function createSsoSettings(db: Db, flags: SsoFlags = {}) {
  const { orm } = db;
  const { settings } = db.t;

  async function stored(): Promise<SsoSettings> {
    const row = await first(orm.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)));
    if (!row) return { ...SSO_DEFAULTS };
    try {
      return { ...SSO_DEFAULTS, ...(JSON.parse(row.value) as Partial<SsoSettings>) };
    } catch {
      return { ...SSO_DEFAULTS };
    }
  }

  /** Whether the settings can sign anyone in. */
  const usable = (s: SsoSettings) => s.enabled && settingsProblem(s) === null;

  return {
    stored,
    /** The settings in force: flags over the stored ones; password sign-in never off without a usable provider. */
    async effective(): Promise<EffectiveSsoSettings> {
      const saved = await stored();
      const merged: SsoSettings = flags.provider ? { ...saved, ...flags.provider } : saved;
      const passwordLogin = flags.passwordLogin ?? (merged.passwordLogin || !usable(merged));
      return { ...merged, passwordLogin, source: flags.provider ? "flags" : "settings", passwordLoginForced: flags.passwordLogin !== undefined };
    },
    usable,
    async save(next: SsoSettings): Promise<void> {
      const value = JSON.stringify(next);
      await orm.insert(settings).values({ key: KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    },
    flags,
  };
}

export type SsoSettingsStore = ReturnType<typeof createSsoSettings>;
