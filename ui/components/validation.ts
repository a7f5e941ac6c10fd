import type { ParseKeys } from "i18next";

// Client-side checks matching the server's rules. Each returns the i18n key of the problem, or null when fine.

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;

export function checkUsername(value: string): ParseKeys | null {
  const name = value.trim();
  if (!name) return "validation.usernameRequired";
  if (/\s/.test(name)) return "validation.usernameSpaces";
  if (name.length < USERNAME_MIN || name.length > USERNAME_MAX) return "validation.usernameLength";
  return null;
}

/** Empty is fine (the email is optional). */
export function checkEmail(value: string): ParseKeys | null {
  const email = value.trim();
  if (!email) return null;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254 ? null : "validation.emailInvalid";
}

export function checkNewPassword(password: string, confirm: string): ParseKeys | null {
  if (!password) return "validation.passwordRequired";
  // A mismatch is reported first: it is what the user most likely got wrong.
  if (password !== confirm) return "validation.passwordsDoNotMatch";
  if (password.length < PASSWORD_MIN) return "validation.passwordLength";
  return null;
}

/** The first problem of several checks, or null. */
export function firstProblem(...problems: (ParseKeys | null)[]): ParseKeys | null {
  return problems.find((p) => p !== null) ?? null;
}

/** The email for a payload: trimmed, or left out when empty (spec §5). */
export function optionalEmail(value: string): { email?: string } {
  const email = value.trim();
  return email ? { email } : {};
}
