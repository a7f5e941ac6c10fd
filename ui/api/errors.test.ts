import { beforeAll, expect, test } from "bun:test";
import i18n from "i18next";
import { i18nOptions } from "../i18n";
import { ApiError } from "./client";
import { errorMessage } from "./errors";

beforeAll(async () => {
  await i18n.init({ ...i18nOptions, lng: "zh-CN", detection: undefined });
});

test("a known code shows its translation in the current language", async () => {
  await i18n.changeLanguage("zh-CN");
  expect(errorMessage(new ApiError(409, "USERNAME_EXISTS", "Username already exists"), "fallback")).toBe("用户名已存在");
  await i18n.changeLanguage("en-US");
  expect(errorMessage(new ApiError(401, "INVALID_CREDENTIALS", "x"), "fallback")).toBe("Incorrect username or password");
  expect(errorMessage(new ApiError(429, "TOO_MANY_ATTEMPTS", "x", { retryAfter: 90 }), "f")).toContain("2 minute");
});

test("else the server's message, else the fallback", () => {
  expect(errorMessage(new ApiError(400, "SOMETHING_NEW", "Server says no"), "fallback")).toBe("Server says no");
  expect(errorMessage(new ApiError(400, undefined, "Server says no"), "fallback")).toBe("Server says no");
  expect(errorMessage(new ApiError(0, undefined, ""), "Login failed, please try again later.")).toBe("Login failed, please try again later.");
  expect(errorMessage(new Error("boom"), "fallback")).toBe("fallback");
});
