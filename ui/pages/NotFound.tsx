import { useTranslation } from "react-i18next";
import { ButtonLink } from "../components/Button";
import { useDocumentTitle } from "../components/useDocumentTitle";

export default function NotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t("notFound.title"));
  return (
    <div data-testid="not-found" className="mx-auto flex max-w-md flex-col items-center py-20 text-center">
      <p className="text-6xl font-bold tracking-tight text-indigo-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t("notFound.title")}</h1>
      <p className="mt-2 text-sm text-slate-500">{t("notFound.message")}</p>
      <ButtonLink href="/" className="mt-8" data-testid="not-found-home">
        {t("common.returnHome")}
      </ButtonLink>
    </div>
  );
}
