import { useTranslation } from "react-i18next";
import { LANGUAGES, DEFAULT_LANGUAGE } from "../i18n/languages";
import { GlobeIcon } from "./icons";

/** A select of the interface languages; the choice is cached in localStorage by the detector. */
export function LanguageSwitch({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? DEFAULT_LANGUAGE;
  return (
    <div className={`relative inline-flex items-center ${className}`}>
      <GlobeIcon className="pointer-events-none absolute left-2.5 size-4 text-slate-500" />
      <select
        data-testid="language-switch"
        aria-label={t("language.label")}
        value={current}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
        className="cursor-pointer appearance-none rounded-lg border-0 bg-transparent py-1.5 pl-8 pr-3 text-sm text-slate-600 ring-1 ring-inset ring-slate-200 hover:bg-slate-50 focus:outline-none focus:ring-2 focus:ring-indigo-500"
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.label}
          </option>
        ))}
      </select>
    </div>
  );
}
