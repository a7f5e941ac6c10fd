import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Agent edit. Built by a later issue; until then an honest placeholder. */
export default function AgentEdit() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("agents.editTitle")} />;
}
