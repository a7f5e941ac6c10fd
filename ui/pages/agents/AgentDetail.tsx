import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "../../components/NotBuiltYet";

/** Agent detail: CPU, memory, disk, network and load. Built by a later issue; until then an honest placeholder. */
export default function AgentDetail() {
  const { t } = useTranslation();
  return <NotBuiltYet title={t("agents.detailTitle")} />;
}
