import { expect, test } from "bun:test";
import { checkEmail, checkNewPassword, checkUsername, firstProblem, optionalEmail } from "./validation";

test("usernames: required, 3-32 characters, no spaces", () => {
  expect(checkUsername("")).toBe("validation.usernameRequired");
  expect(checkUsername("  ")).toBe("validation.usernameRequired");
  expect(checkUsername("ab")).toBe("validation.usernameLength");
  expect(checkUsername("a".repeat(33))).toBe("validation.usernameLength");
  expect(checkUsername("a b c")).toBe("validation.usernameSpaces");
  expect(checkUsername("abc")).toBeNull();
  expect(checkUsername("a".repeat(32))).toBeNull();
});

test("emails are optional but must look like one", () => {
  expect(checkEmail("")).toBeNull();
  expect(checkEmail("a@b.co")).toBeNull();
  expect(checkEmail("nope")).toBe("validation.emailInvalid");
  expect(checkEmail("a@b")).toBe("validation.emailInvalid");
});

test("new passwords: at least 8 characters and confirmed", () => {
  expect(checkNewPassword("", "")).toBe("validation.passwordRequired");
  expect(checkNewPassword("short", "short")).toBe("validation.passwordLength");
  expect(checkNewPassword("longenough", "different1")).toBe("validation.passwordsDoNotMatch");
  expect(checkNewPassword("abc", "abd")).toBe("validation.passwordsDoNotMatch");
  expect(checkNewPassword("longenough", "longenough")).toBeNull();
});

test("firstProblem and optionalEmail", () => {
  expect(firstProblem(null, "validation.emailInvalid", "validation.passwordLength")).toBe("validation.emailInvalid");
  expect(firstProblem(null, null)).toBeNull();
  expect(optionalEmail("  ")).toEqual({});
  expect(optionalEmail(" a@b.co ")).toEqual({ email: "a@b.co" });
});
