// The wire types and limits of the API tokens API (the UI imports them through ui/api/tokens.ts). Routes:
// server/tokens/routes.ts; docs/api.md, "API tokens".

/** Every API token starts with this marker: the auth guard tells tokens from session JWTs by it. */
export const API_TOKEN_MARKER = "vgl_api_";

export const TOKEN_NAME_MAX = 64;
/** Longest expiry a user may choose: ten years. No expiry at all is also allowed. */
export const TOKEN_EXPIRY_DAYS_MAX = 3650;
/** Per user: enough for every script and machine, few enough that a runaway script cannot fill the table. */
export const TOKENS_PER_USER_MAX = 50;

/**
 * What a token may do, chosen when it is created (docs/api.md, "API tokens"):
 * - `read`: GET calls only (lists, details, history, /metrics) — what Prometheus and dashboards need;
 * - `write`: everything its user may do except accounts: monitors, agents, channels, status page, checks;
 * - `full`: everything its user may do, accounts included (an admin's: user management and invites; anyone's:
 *   their own profile and password).
 * Each includes the one before it. Tokens never manage tokens, whatever their scope.
 */
export const TOKEN_SCOPES = ["read", "write", "full"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** The suggested choice: a leaked read-only token changes nothing. */
export const DEFAULT_TOKEN_SCOPE: TokenScope = "read";

/** Methods that change nothing: all a read-only token may call. */
const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * The scope an API token needs for a call, from the route's auth level (auth/session.ts) and the method: accounts
 * (level "accounts", or "self": a user's own profile and password) take `full`, other changes `write`, reads `read`.
 */
export function scopeNeeded(level: string, method: string): TokenScope {
  if (level === "accounts" || level === "self") return "full";
  return READ_METHODS.has(method.toUpperCase()) ? "read" : "write";
}

/** A token as the API lists it: never its secret (shown once, at creation) or hash. */
export interface PublicApiToken {
  id: number;
  name: string;
  scope: TokenScope;
  /** The secret's first characters ("vgl_api_AbCdEfGh"), to recognise it. */
  prefix: string;
  createdAt: number;
  /** Null: never expires. */
  expiresAt: number | null;
  /** Null: never used. Updated at most once a minute. */
  lastUsedAt: number | null;
  expired: boolean;
}

/** POST /api/tokens. `expiresInDays` absent or null: the token never expires; `scope` absent: read-only. */
export interface CreateApiTokenInput {
  name: string;
  scope?: TokenScope;
  expiresInDays?: number | null;
  /** With two-factor on: a code from the authenticator app (or a recovery code). */
  code?: string;
}

/** The reply to POST /api/tokens: the only time the secret is ever sent. */
export interface CreatedApiToken {
  token: PublicApiToken;
  secret: string;
}
