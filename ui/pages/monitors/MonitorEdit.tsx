import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Monitor edit form. Built by a later issue; until then an honest placeholder. */
export default function MonitorEdit() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("monitors.editTitle")} />;
}
