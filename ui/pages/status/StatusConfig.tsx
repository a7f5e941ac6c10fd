import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Status page configuration. Built by a later issue; until then an honest placeholder. */
export default function StatusConfig() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("statusConfig.title")} />;
}
