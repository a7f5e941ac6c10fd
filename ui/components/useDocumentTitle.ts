import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** Sets the tab title to "<page> · Vigil" (or just "Vigil"). */
export function useDocumentTitle(title?: string) {
  const { t } = useTranslation();
  const app = t("app.name");
  useEffect(() => {
    document.title = title ? `${title} · ${app}` : app;
  }, [title, app]);
}
