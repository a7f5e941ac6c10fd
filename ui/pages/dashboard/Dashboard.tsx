import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Dashboard: total and active monitors. Built by a later issue; until then an honest placeholder. */
export default function Dashboard() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("dashboard.title")} />;
}
