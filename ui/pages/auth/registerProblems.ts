import type { ParseKeys } from "i18next";
import { checkEmail, checkUsername, PASSWORD_MIN } from "../../components/validation";

export interface RegisterFields {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export type RegisterProblems = Partial<Record<keyof RegisterFields, ParseKeys>>;

/**
 * Every field's problem at once, as i18n keys (the form shows them all together, not the first one only); empty when
 * the form may be sent. The rules are the server's (components/validation.ts).
 */
export function registerProblems(form: RegisterFields): RegisterProblems {
  const problems: Record<keyof RegisterFields, ParseKeys | null> = {
    username: checkUsername(form.username),
    email: checkEmail(form.email),
    password: !form.password ? "validation.passwordRequired" : form.password.length < PASSWORD_MIN ? "validation.passwordLength" : null,
    // A mismatch only once there is a password to match: an empty password is said once, under its own field.
    confirmPassword: !form.confirmPassword
      ? "auth.register.confirmRequired"
      : form.password && form.confirmPassword !== form.password
        ? "validation.passwordsDoNotMatch"
        : null,
  };
  return Object.fromEntries(Object.entries(problems).filter(([, problem]) => problem !== null));
}
