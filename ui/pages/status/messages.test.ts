import { beforeAll, expect, test } from "bun:test";
import i18n from "i18next";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { i18nOptions } from "../../i18n";

beforeAll(async () => {
  await i18n.init({ ...i18nOptions, lng: "zh-CN", detection: undefined });
});

test("spec §8: the status page configuration's save messages in both languages", async () => {
  for (const [lng, expected] of [
    ["en-US", ["Status page configuration saved", "Failed to save status page configuration"]],
    ["zh-CN", ["状态页配置已保存", "保存状态页配置失败"]],
  ] as const) {
    await i18n.changeLanguage(lng);
    expect([i18n.t("statusConfig.saved"), i18n.t("statusConfig.saveFailed")]).toEqual([...expected]);
  }
});

test("the status API's error codes are translated, not shown as the server's English", async () => {
  for (const lng of ["zh-CN", "en-US"]) {
    await i18n.changeLanguage(lng);
    for (const code of ["MONITOR_UNKNOWN", "AGENT_UNKNOWN"]) {
      const shown = errorMessage(new ApiError(400, code, "Unknown monitor in the selection: 9"), "f");
      expect({ lng, code, translated: shown !== "Unknown monitor in the selection: 9" && shown !== "f" }).toEqual({ lng, code, translated: true });
    }
  }
  await i18n.changeLanguage("en-US");
  expect(errorMessage(new ApiError(400, "MONITOR_UNKNOWN", "x"), "f")).toContain("no longer exists");
});
