import { describe, expect, test } from "bun:test";
import enUS from "./en-US";
import { normalizeLanguage } from "./languages";
import zhCN from "./zh-CN";

type Tree = { [key: string]: string | Tree };

/** Every leaf as [dotted.key, value]. */
function leaves(tree: Tree, prefix = ""): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value !== null && typeof value === "object" ? leaves(value, path) : [[path, value] as [string, unknown]];
  });
}

/** Every `{{name}}` placeholder in a string. */
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("i18n resources", () => {
  const zh = leaves(zhCN as Tree);
  const en = leaves(enUS as Tree);

  test("zh-CN and en-US have exactly the same keys, at every depth", () => {
    expect(en.map(([k]) => k).sort()).toEqual(zh.map(([k]) => k).sort());
  });

  test("no value is empty or anything but a string", () => {
    for (const [key, value] of [...zh, ...en]) {
      expect({ key, ok: typeof value === "string" && value.trim().length > 0 }).toEqual({ key, ok: true });
    }
  });

  test("zh-CN has one word for the agent, 客户端: never Agent or 探针 beside it", () => {
    const mixed = zh.filter(([, value]) => /(?<![-\w])Agent(?![-\w])|探针/.test(String(value))).map(([key]) => key);
    expect(mixed).toEqual([]);
  });

  test("both languages use the same interpolation placeholders", () => {
    const enMap = new Map(en);
    for (const [key, value] of zh) {
      expect({ key, vars: placeholders(String(enMap.get(key))) }).toEqual({ key, vars: placeholders(String(value)) });
    }
  });

  test("the spec's error and success messages exist in English", () => {
    const values = new Set(en.map(([, v]) => v));
    for (const message of [
      "Login failed, please try again later.",
      "Incorrect username or password",
      "Registration failed, please try again later.",
      "Failed to fetch user information",
      "Failed to fetch user list",
      "Failed to delete user",
      "Failed to update profile",
      "Failed to change password",
      "User not logged in",
      "Passwords do not match",
      "Username already exists",
      "Email already exists",
      "Failed to save status page configuration",
      "Failed to fetch data",
      "Channel name is required",
      "Invalid Bot Token format",
      "Webhook URL is required",
      "Profile updated",
      "Password changed",
      "Agent updated",
      "Update failed",
      "Deletion failed",
      "Notifications",
    ]) {
      expect(values.has(message)).toBe(true);
    }
  });
});

describe("normalizeLanguage", () => {
  test("maps Chinese and English variants to the supported codes", () => {
    expect(normalizeLanguage("zh")).toBe("zh-CN");
    expect(normalizeLanguage("zh-TW")).toBe("zh-CN");
    expect(normalizeLanguage("zh-CN")).toBe("zh-CN");
    expect(normalizeLanguage("en")).toBe("en-US");
    expect(normalizeLanguage("en-US")).toBe("en-US");
    expect(normalizeLanguage("EN-gb")).toBe("en-US");
  });

  test("leaves unknown languages alone (i18next then falls back to zh-CN)", () => {
    expect(normalizeLanguage("fr-FR")).toBe("fr-FR");
    expect(normalizeLanguage("english")).toBe("english");
  });
});

describe("language resolution with the app's i18next options", () => {
  /** The language i18next settles on when the detector reports `detected` (already normalised, as the real one does). */
  async function resolve(detected: string[]): Promise<string | undefined> {
    const { createInstance } = await import("i18next");
    const { i18nOptions } = await import("./index");
    const instance = createInstance();
    instance.use({
      type: "languageDetector",
      init() {},
      detect: () => detected.map(normalizeLanguage),
      cacheUserLanguage() {},
    });
    await instance.init({ ...i18nOptions, detection: undefined });
    return instance.resolvedLanguage;
  }

  test("English and Chinese browsers get their language; anything else gets zh-CN", async () => {
    expect(await resolve(["en-US"])).toBe("en-US");
    expect(await resolve(["en"])).toBe("en-US");
    expect(await resolve(["en-GB", "en"])).toBe("en-US");
    expect(await resolve(["zh-TW"])).toBe("zh-CN");
    expect(await resolve(["fr-FR", "de"])).toBe("zh-CN");
    expect(await resolve([])).toBe("zh-CN");
  });
});

test("the home page names every kind of notification channel, in both languages", () => {
  for (const dict of [enUS, zhCN] as unknown as { home: { features: { notifications: { description: string } } }; notifications: { types: Record<string, string> } }[]) {
    const text = dict.home.features.notifications.description;
    for (const [type, label] of Object.entries(dict.notifications.types)) {
      // "Email (SMTP)" / "邮件（SMTP）": the description names the transport in brackets.
      const name = /[(（]([^)）]+)[)）]/.exec(label)?.[1] ?? label;
      expect([type, text.toLowerCase().includes(name.toLowerCase())]).toEqual([type, true]);
    }
  }
});
