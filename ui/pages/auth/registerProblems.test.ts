import { expect, test } from "bun:test";
import { registerProblems } from "./registerProblems";

const GOOD = { username: "alice", email: "", password: "correct horse", confirmPassword: "correct horse" };

test("a good form has no problems (the email is optional)", () => {
  expect(registerProblems(GOOD)).toEqual({});
  expect(registerProblems({ ...GOOD, email: "alice@example.com" })).toEqual({});
});

test("an empty form names every field at once", () => {
  expect(registerProblems({ username: "", email: "", password: "", confirmPassword: "" })).toEqual({
    username: "validation.usernameRequired",
    password: "validation.passwordRequired",
    confirmPassword: "auth.register.confirmRequired",
  });
});

test("several wrong fields are all reported together", () => {
  expect(registerProblems({ username: "a b", email: "not-an-email", password: "short", confirmPassword: "other" })).toEqual({
    username: "validation.usernameSpaces",
    email: "validation.emailInvalid",
    password: "validation.passwordLength",
    confirmPassword: "validation.passwordsDoNotMatch",
  });
});

test("a repeated password without a password is not also called a mismatch", () => {
  expect(registerProblems({ ...GOOD, password: "", confirmPassword: "correct horse" })).toEqual({ password: "validation.passwordRequired" });
});
