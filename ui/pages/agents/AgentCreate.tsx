import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Agent create: install guide with a one-time token. Built by a later issue; until then an honest placeholder. */
export default function AgentCreate() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("agents.createTitle")} />;
}
