import i18n, { type InitOptions } from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import enUS from "./en-US";
import zhCN, { type Messages } from "./zh-CN";
import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, SUPPORTED_LANGUAGES, normalizeLanguage } from "./languages";

export { LANGUAGES, DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, SUPPORTED_LANGUAGES, normalizeLanguage } from "./languages";
export type { LanguageCode, LanguageOption } from "./languages";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: Messages };
  }
}

export const resources = {
  "zh-CN": { translation: zhCN },
  "en-US": { translation: enUS },
} as const;

/** zh-CN is the default and the fallback; the detected choice is cached in localStorage under its own key. */
export const i18nOptions = {
  resources,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  nonExplicitSupportedLngs: false,
  load: "currentOnly",
  interpolation: { escapeValue: false }, // React escapes
  detection: {
    order: ["querystring", "cookie", "localStorage", "sessionStorage", "navigator", "htmlTag"],
    lookupQuerystring: "lng",
    lookupCookie: LANGUAGE_STORAGE_KEY,
    lookupLocalStorage: LANGUAGE_STORAGE_KEY,
    lookupSessionStorage: LANGUAGE_STORAGE_KEY,
    caches: ["localStorage"],
    convertDetectedLanguage: normalizeLanguage,
  },
} satisfies InitOptions;

/** Starts i18next with the browser language detector; keeps `<html lang>` in step with the language. */
export function setupI18n() {
  i18n.on("languageChanged", (lng) => {
    document.documentElement.lang = lng;
  });
  return i18n.use(LanguageDetector).use(initReactI18next).init(i18nOptions);
}

export default i18n;
