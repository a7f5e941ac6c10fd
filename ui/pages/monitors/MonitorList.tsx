import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Monitor list: name, URL, status, response time, uptime, actions. Built by a later issue; until then an honest placeholder. */
export default function MonitorList() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("monitors.title")} />;
}
