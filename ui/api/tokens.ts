import type { CreateApiTokenInput, CreatedApiToken, PublicApiToken } from "../../server/tokens/public";
import { api } from "./client";

// The wire types are the server's: the UI imports them from here, never writes them again.
export type * from "../../server/tokens/public";
export { DEFAULT_TOKEN_SCOPE, TOKEN_NAME_MAX, TOKEN_SCOPES } from "../../server/tokens/public";

/** The expiry choices offered on /profile, in days; null: never expires. */
export const TOKEN_EXPIRY_CHOICES = [null, 30, 90, 365] as const;
export type TokenExpiryChoice = (typeof TOKEN_EXPIRY_CHOICES)[number];

export const listTokens = () => api.get<{ tokens: PublicApiToken[] }>("/api/tokens");

/** The secret is in this reply only: the server keeps its hash. */
export const createToken = (input: CreateApiTokenInput) => api.post<CreatedApiToken>("/api/tokens", input);

export const revokeToken = (id: number) => api.delete<object>(`/api/tokens/${id}`);
