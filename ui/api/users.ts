import type { PublicUser, Role, UserStatus } from "../../server/users/public";
import { api } from "./client";

export type { PublicUser, Role, UserStatus };

export interface CreateUserInput {
  username: string;
  email?: string;
  password: string;
  role: Role;
}

export interface UpdateUserInput {
  username: string;
  /** Omitted when empty (spec §5). */
  email?: string;
  /** Admin only. */
  role?: Role;
  /** Admin only. */
  status?: UserStatus;
}

export interface ChangePasswordInput {
  /** Required for your own password; an admin resetting someone else's leaves it out. */
  currentPassword?: string;
  newPassword: string;
  /** Your own, with two-factor on: a code from the authenticator app (or a recovery code). */
  code?: string;
}

export const listUsers = () => api.get<{ users: PublicUser[] }>("/api/users");

export const getUser = (id: number) => api.get<{ user: PublicUser }>(`/api/users/${id}`);

export const createUser = (input: CreateUserInput) => api.post<{ user: PublicUser }>("/api/users", input);

export const updateUser = (id: number, input: UpdateUserInput) => api.put<{ user: PublicUser }>(`/api/users/${id}`, input);

export const deleteUser = (id: number) => api.delete<object>(`/api/users/${id}`);

/** The server answers a change of your own password with a fresh token (older ones are revoked). */
export const changePassword = (id: number, input: ChangePasswordInput) =>
  api.post<{ token?: string }>(`/api/users/${id}/change-password`, input);
