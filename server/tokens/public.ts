// The wire types and limits of the API tokens API (the UI imports them through ui/api/tokens.ts). Routes:
// server/tokens/routes.ts; README "API tokens".

/** Every API token starts with this marker: the auth guard tells tokens from session JWTs by it. */
export const API_TOKEN_MARKER = "vgl_api_";

export const TOKEN_NAME_MAX = 64;
/** Longest expiry a user may choose: ten years. No expiry at all is also allowed. */
export const TOKEN_EXPIRY_DAYS_MAX = 3650;
/** Per user: enough for every script and machine, few enough that a runaway script cannot fill the table. */
export const TOKENS_PER_USER_MAX = 50;

/** A token as the API lists it: never its secret (shown once, at creation) or hash. */
export interface PublicApiToken {
  id: number;
  name: string;
  /** The secret's first characters ("vgl_api_AbCdEfGh"), to recognise it. */
  prefix: string;
  createdAt: number;
  /** Null: never expires. */
  expiresAt: number | null;
  /** Null: never used. Updated at most once a minute. */
  lastUsedAt: number | null;
  expired: boolean;
}

/** POST /api/tokens. `expiresInDays` absent or null: the token never expires. */
export interface CreateApiTokenInput {
  name: string;
  expiresInDays?: number | null;
}

/** The reply to POST /api/tokens: the only time the secret is ever sent. */
export interface CreatedApiToken {
  token: PublicApiToken;
  secret: string;
}
