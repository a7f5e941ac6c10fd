import { useTranslation } from "react-i18next";
import { Spinner } from "./Button";

/** Shown while a lazy page loads or the session is being checked. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div data-testid="page-loading" role="status" className="flex min-h-[40vh] items-center justify-center gap-3 text-sm text-slate-500">
      <Spinner className="size-5 text-indigo-500" />
      {t("common.loading")}
    </div>
  );
}
