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
}

export const login = (input: LoginInput) => api.post<{ token: string; user: PublicUser }>("/api/auth/login", input);

export const register = (input: RegisterInput) => api.post<{ user: PublicUser }>("/api/auth/register", input);

export const me = () => api.get<{ user: PublicUser }>("/api/auth/me");
