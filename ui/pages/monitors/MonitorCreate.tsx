import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Monitor create form. Built by a later issue; until then an honest placeholder. */
export default function MonitorCreate() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("monitors.createTitle")} />;
}
