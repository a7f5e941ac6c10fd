import { beforeAll, expect, test } from "bun:test";
import i18n from "i18next";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { i18nOptions } from "../../i18n";

beforeAll(async () => {
  await i18n.init({ ...i18nOptions, lng: "zh-CN", detection: undefined });
});

test("spec §8 monitor messages exist in both languages", async () => {
  for (const [lng, expected] of [
    ["en-US", ["Failed to fetch monitor data", "Failed to create or update the monitor", "Deletion failed, please try again"]],
    ["zh-CN", ["获取监控数据失败", "创建或更新监控失败", "删除失败，请重试"]],
  ] as const) {
    await i18n.changeLanguage(lng);
    expect([i18n.t("monitors.fetchFailed"), i18n.t("monitors.saveFailed"), i18n.t("monitors.deleteFailed")]).toEqual([...expected]);
  }
});

test("the monitor API's error codes are translated in both languages", async () => {
  for (const lng of ["zh-CN", "en-US"]) {
    await i18n.changeLanguage(lng);
    for (const code of ["VALIDATION", "INVALID_URL", "TIMEOUT_TOO_LONG", "BODY_NOT_ALLOWED", "RESERVED_HEADER", "MONITOR_NOT_FOUND"]) {
      expect({ lng, code, ok: i18n.exists(`errors.${code}`) }).toEqual({ lng, code, ok: true });
    }
  }
  await i18n.changeLanguage("en-US");
  expect(errorMessage(new ApiError(404, "MONITOR_NOT_FOUND", "Monitor not found"), "f")).toBe("Monitor not found");
  await i18n.changeLanguage("zh-CN");
  expect(errorMessage(new ApiError(400, "TIMEOUT_TOO_LONG", "x"), "f")).toBe("超时必须短于检查间隔");
});

test("a VALIDATION error keeps the server's sentence", async () => {
  await i18n.changeLanguage("en-US");
  const err = new ApiError(400, "VALIDATION", "At most 50 headers");
  expect(errorMessage(err, "f")).toBe("Some values are not valid: At most 50 headers");
});

test("the check types' error codes are translated in both languages", async () => {
  for (const lng of ["zh-CN", "en-US"]) {
    await i18n.changeLanguage(lng);
    for (const code of ["INVALID_HOST", "PORT_REQUIRED", "INVALID_RESOLVER", "INVALID_JSON_PATH", "MAX_RESPONSE_TIME_TOO_LONG", "PUSH_TOKEN_UNKNOWN", "MONITOR_PAUSED", "TOO_MANY_PUSHES"]) {
      expect({ lng, code, ok: i18n.exists(`errors.${code}`) }).toEqual({ lng, code, ok: true });
    }
  }
});

test("an INVALID_JSON_PATH error keeps the server's precise sentence", async () => {
  const err = new ApiError(400, "INVALID_JSON_PATH", 'Expected a value after == at position 11: a number, "text", true, false or null');
  await i18n.changeLanguage("en-US");
  expect(errorMessage(err, "f")).toBe('Invalid JSON path: Expected a value after == at position 11: a number, "text", true, false or null');
  await i18n.changeLanguage("zh-CN");
  expect(errorMessage(err, "f")).toBe('JSON 路径无效：Expected a value after == at position 11: a number, "text", true, false or null');
});

test("dependency refusals and the unreachable and upside-down check errors read in both languages", async () => {
  const { translateCheckError } = await import("./checkError");
  const cycle = new ApiError(400, "DEPENDENCY_CYCLE", "This would make a cycle of dependencies: A → B → A", { cycle: "A → B → A" });
  await i18n.changeLanguage("zh-CN");
  expect(errorMessage(cycle, "f")).toBe("这会形成循环依赖：A → B → A");
  for (const code of ["DEPENDENCY_UNKNOWN", "DEPENDENCY_SELF", "TOO_MANY_DEPENDENCIES"]) expect(i18n.exists(`errors.${code}`)).toBe(true);
  expect(translateCheckError(i18n.t, "unreachable: Core router is down")).toBe("无法访问：Core router 已故障");
  expect(translateCheckError(i18n.t, "up, but this monitor is upside down")).toBe("正常，但此监控为反转模式");
  await i18n.changeLanguage("en-US");
  expect(errorMessage(cycle, "f")).toBe("This would make a cycle of dependencies: A → B → A");
  expect(translateCheckError(i18n.t, "unreachable: Core router is down")).toBe("Unreachable: Core router is down");
});
