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

/** A session, or — with two-factor on — a challenge for the second step (loginWithCode). */
export type LoginReply = { token: string; user: PublicUser; twoFactor?: undefined } | { twoFactor: true; challenge: string; token?: undefined; user?: undefined };

export const login = (input: LoginInput) => api.post<LoginReply>("/api/auth/login", input);

/** The second step of a sign-in with two-factor on: the challenge and a code (or a recovery code). */
export const loginWithCode = (challenge: string, code: string) => api.post<{ token: string; user: PublicUser }>("/api/auth/login/2fa", { challenge, code });

/** A successful registration signs the new account in: the reply carries its session like a login's. */
export const register = (input: RegisterInput) => api.post<{ token: string; user: PublicUser }>("/api/auth/register", input);

export const me = () => api.get<{ user: PublicUser }>("/api/auth/me");
