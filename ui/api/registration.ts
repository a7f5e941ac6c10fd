import type { InviteCheck, PublicInvite } from "../../server/registration/service";
import type { Role } from "../../server/users/public";
import { api } from "./client";

export type { InviteCheck, PublicInvite };

/** The instance's registration setting and its pending (unused, unexpired) invites. */
export interface RegistrationSettings {
  open: boolean;
  /** The role open registration gives (default viewer). */
  role: Role;
  invites: PublicInvite[];
}

export interface CreateInviteInput {
  role: Role;
  /** Validity in hours (the server accepts 1-720). */
  hours: number;
}

/** The validity choices offered on /users, in hours: 1 day, 7 days (the server's default), 30 days. */
export const INVITE_VALIDITY_HOURS = [24, 168, 720] as const;
export type InviteValidity = (typeof INVITE_VALIDITY_HOURS)[number];
export const DEFAULT_INVITE_VALIDITY: InviteValidity = 168;

/** The role the invite form starts on: the least one, first in the list (the server's default too). */
export const DEFAULT_INVITE_ROLE: Role = "viewer";

/** The link a newcomer opens: this server's /register with the one-time token. */
export const inviteLink = (origin: string, token: string) => `${origin.replace(/\/+$/, "")}/register?invite=${encodeURIComponent(token)}`;

export const getRegistration = () => api.get<RegistrationSettings>("/api/registration");

export const setRegistrationOpen = (open: boolean) => api.put<{ open: boolean; role: Role }>("/api/registration", { open });

/** The role accounts made through open registration get. */
export const setRegistrationRole = (role: Role) => api.put<{ open: boolean; role: Role }>("/api/registration", { role });

/** The token is in this reply only: the server keeps its hash. */
export const createInvite = (input: CreateInviteInput) => api.post<{ token: string; invite: PublicInvite }>("/api/registration/invites", input);

export const revokeInvite = (id: number) => api.delete<object>(`/api/registration/invites/${id}`);

/**
 * Public: whether an invite link can still be used, and if so its role and expiry. The token goes in the body, never
 * in a URL a log or proxy would keep.
 */
export const checkInvite = (token: string) => api.post<InviteCheck>("/api/registration/invites/check", { token });
