import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { ConstructionIcon, LogoMark } from "../../components/icons";
import { LanguageSwitch } from "../../components/LanguageSwitch";
import { useDocumentTitle } from "../../components/useDocumentTitle";

/** The public status page: no login, no navbar, no footer. Built by a later issue; until then it says so. */
export default function StatusPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("statusPage.title"));
  return (
    <div data-testid="status-page" className="min-h-screen bg-slate-50">
      <header className="mx-auto flex max-w-3xl items-center justify-between px-4 py-6">
        <Link href="/" className="flex items-center gap-2" aria-label={t("nav.home")}>
          <LogoMark className="size-8" />
          <span className="text-lg font-semibold text-slate-900">{t("app.name")}</span>
        </Link>
        <LanguageSwitch />
      </header>
      <main className="mx-auto max-w-3xl px-4 pb-16">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t("statusPage.title")}</h1>
        <div
          data-testid="not-built-yet"
          className="mt-8 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center"
        >
          <span className="flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600">
            <ConstructionIcon className="size-6" />
          </span>
          <p className="mt-4 max-w-md text-sm text-slate-600">{t("statusPage.notBuilt")}</p>
        </div>
      </main>
    </div>
  );
}
