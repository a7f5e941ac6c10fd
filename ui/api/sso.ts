import type { SsoSettings, SsoSettingsReply } from "../../server/auth/sso/settings";
import { api } from "./client";
import type { LoginReply } from "./auth";

// Single sign-on (OpenID Connect): the sign-in's last step, and the admin's settings.
export type { SsoSettingsReply };

/** Where the "Sign in with …" button goes: the server redirects to the provider. */
export const ssoStartUrl = (returnTo?: string) => `/api/auth/sso/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ""}`;

/** Trades the one-use ticket the callback put in /login?sso= for a session (or the two-factor step). */
export const exchangeSsoTicket = (ticket: string) => api.post<LoginReply>("/api/auth/sso/exchange", { ticket });

export const getSsoSettings = () => api.get<SsoSettingsReply>("/api/auth/sso/settings");

/** Fields left out stay as they are; a client secret left out is kept. */
export type SsoSettingsPatch = Partial<Omit<SsoSettings, "clientSecret">> & { clientSecret?: string };
export const saveSsoSettings = (patch: SsoSettingsPatch) => api.put<SsoSettingsReply>("/api/auth/sso/settings", patch);

export const testSsoProvider = (input: { issuer: string; clientId: string; clientSecret?: string }) =>
  api.post<{ provider: { issuer: string; authorizationEndpoint: string | null; tokenEndpoint: string | null; pkce: boolean | null } }>("/api/auth/sso/settings/test", input);
