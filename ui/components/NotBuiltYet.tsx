import { useTranslation } from "react-i18next";
import { PageHeader } from "./Card";
import { ConstructionIcon } from "./icons";
import { useDocumentTitle } from "./useDocumentTitle";

/** An honest placeholder for a screen a later issue builds: its title and "not built yet". */
export function NotBuiltYet({ title }: { title: string }) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <div>
      <PageHeader title={title} />
      <div
        data-testid="not-built-yet"
        className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center"
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600">
          <ConstructionIcon className="size-6" />
        </span>
        <span className="mt-4 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-800">{t("notBuilt.badge")}</span>
        <p className="mt-3 max-w-md text-sm text-slate-600">{t("notBuilt.message")}</p>
      </div>
    </div>
  );
}
