import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Notification channels and settings. Built by a later issue; until then an honest placeholder. */
export default function Notifications() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("notifications.title")} />;
}
