import type { Page } from "@playwright/test";
import enUS from "../ui/i18n/en-US";
import zhCN from "../ui/i18n/zh-CN";

// What browser tests need to run in both languages: the UI's own message files, so a test never hard-codes a text.

export type Messages = typeof zhCN;

/** Each UI language with its messages: `for (const [locale, m] of LANGUAGES) test.describe(…)`. */
export const LANGUAGES = [
  ["zh-CN", zhCN],
  ["en-US", enUS as unknown as Messages],
] as const;

/** The text of a key in a language, with `{{x}}` filled in (as i18next does). */
export function tr(messages: Messages, key: string, values: Record<string, string | number> = {}): string {
  const text = key.split(".").reduce<any>((node, part) => node?.[part], messages);
  if (typeof text !== "string") throw new Error(`no text for ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}

/** The toast showing a text. */
export const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
