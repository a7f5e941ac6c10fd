import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Monitor detail: history, response-time chart, manual check. Built by a later issue; until then an honest placeholder. */
export default function MonitorDetail() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("monitors.detailTitle")} />;
}
