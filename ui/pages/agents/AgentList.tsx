import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Agent list: card view and table view. Built by a later issue; until then an honest placeholder. */
export default function AgentList() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("agents.title")} />;
}
