import type { PublicUser } from "../../server/users/public";
import { api } from "./client";

export interface LoginInput {
  /** Username or email. */
  username: string;
  password: string;
}

export interface RegisterInput {
  username: string;
  email?: string;
  password: string;
  confirmPassword: string;
  /** The token of an invite link (`/register?invite=…`): needed while registration is closed. */
  invite?: string;
}

export const login = (input: LoginInput) => api.post<{ token: string; user: PublicUser }>("/api/auth/login", input);

/** A successful registration signs the new account in: the reply carries its session like a login's. */
export const register = (input: RegisterInput) => api.post<{ token: string; user: PublicUser }>("/api/auth/register", input);

export const me = () => api.get<{ user: PublicUser }>("/api/auth/me");
