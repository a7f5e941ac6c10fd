export const SUPPORTED_LANGUAGES = ["zh-CN", "en-US"] as const;
export type LanguageCode = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: LanguageCode = "zh-CN";
/** localStorage (and cookie / sessionStorage) key holding the chosen language. */
export const LANGUAGE_STORAGE_KEY = "vigil.language";

export interface LanguageOption {
  code: LanguageCode;
  /** Each language's own name: shown the same whatever the current language, so not translated. */
  label: string;
}

export const LANGUAGES: LanguageOption[] = [
  { code: "zh-CN", label: "简体中文" },
  { code: "en-US", label: "English" },
];

/**
 * Maps any detected code to a supported one: zh, zh-TW, zh_Hans… → zh-CN; en, en-GB… → en-US.
 * Anything else is returned as is, so i18next skips it and ends on the zh-CN fallback.
 */
export function normalizeLanguage(code: string): string {
  const lower = code.trim().toLowerCase();
  if (lower === "zh" || lower.startsWith("zh-") || lower.startsWith("zh_")) return "zh-CN";
  if (lower === "en" || lower.startsWith("en-") || lower.startsWith("en_")) return "en-US";
  return code;
}
