import type { UserRow } from "../db/schema";

/** A user as the API shows it: never the password hash or session version. */
export type PublicUser = Pick<UserRow, "id" | "username" | "email" | "role" | "status" | "createdAt"> & {
  /** Two-factor sign-in (TOTP) is on. */
  twoFactor: boolean;
};
export type Role = UserRow["role"];
export type UserStatus = UserRow["status"];

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt,
    twoFactor: row.twoFactorAt !== null,
  };
}
