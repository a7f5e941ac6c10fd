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

test("the agent API's error codes are translated in both languages", async () => {
  for (const [lng, expected] of [
    ["zh-CN", ["客户端不存在", "注册令牌无效、已使用或已过期"]],
    ["en-US", ["Agent not found", "This registration token is not valid, already used or expired"]],
  ] as const) {
    await i18n.changeLanguage(lng);
    expect(errorMessage(new ApiError(404, "AGENT_NOT_FOUND", "Agent not found"), "f")).toBe(expected[0]);
    expect(errorMessage(new ApiError(401, "INVALID_TOKEN", "x"), "f")).toBe(expected[1]);
    for (const code of ["AGENT_UNKNOWN", "SAMPLE_TIME"]) expect(i18n.exists(`errors.${code}`)).toBe(true);
  }
});

test("an unreachable database says so in both languages, whatever the page's fallback", async () => {
  const outage = new ApiError(503, "DATABASE_UNAVAILABLE", "The database is unreachable; try again in a few seconds");
  await i18n.changeLanguage("en-US");
  expect(errorMessage(outage, "Failed to fetch data")).toBe("The database is unreachable; Vigil retries by itself. Try again in a few seconds.");
  await i18n.changeLanguage("zh-CN");
  expect(errorMessage(outage, "获取数据失败")).toBe("数据库无法连接；Vigil 会自动重试，请稍后再试。");
});
