// `vigil reset-password <username>`: for an admin locked out. Sets a new random password, signs the account out
// everywhere, and prints the password once; the user should change it on /profile after signing in.
import { randomBytes } from "node:crypto";
import { createPasswordHasher, type PasswordHasher } from "../auth/passwords";
import type { Db } from "../db/database";
import { createUserStore } from "../users/store";

export async function resetPassword(db: Db, username: string, passwords: PasswordHasher = createPasswordHasher()) {
  const users = createUserStore(db);
  const user = (await users.list()).find((u) => u.username.toLowerCase() === username.trim().toLowerCase());
  if (!user) throw new Error(`No user named "${username}".`);
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await passwords.hash(password);
  if (!(await users.update(user.id, { passwordHash, revokeSessions: true }))) throw new Error(`No user named "${username}".`);
  return { username: user.username, password, disabled: user.status === "disabled" };
}
