// /notifications: one page, seven tabs, the tab (and the chosen monitor, agent or escalation policy) in the URL so any
// view can be linked to — the monitor and agent pages link straight to their own settings and to the escalation tab.
// Escalation policies sit beside the channels they page (ui/pages/escalation/) rather than on a screen of their own.
//
// data-testids: `notifications-tabs`, `notifications-tab-{tab}` (aria-current="page" on the open one),
//   `notifications-panel-{tab}`.
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { PageHeader } from "../../components/Card";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { PoliciesTab } from "../escalation/PoliciesTab";
import { ChannelsTab } from "./ChannelsTab";
import { GlobalTab } from "./GlobalTab";
import { parseQuery, TABS, tabHref, type Tab } from "./model";
import { SettingsTab } from "./SettingsTab";
import { TargetsTab } from "./TargetsTab";
import { TemplatesTab } from "./TemplatesTab";

export default function Notifications() {
  const { t } = useTranslation();
  useDocumentTitle(t("notifications.title"));
  const query = parseQuery(useSearch());
  return (
    <div>
      <PageHeader title={t("notifications.title")} description={t("notifications.subtitle")} />
      <TabBar active={query.tab} />
      <div data-testid={`notifications-panel-${query.tab}`} className="mt-6">
        {query.tab === "channels" && <ChannelsTab />}
        {query.tab === "escalation" && <PoliciesTab selected={query.policy} />}
        {query.tab === "settings" && <SettingsTab />}
        {query.tab === "templates" && <TemplatesTab />}
        {query.tab === "global" && <GlobalTab />}
        {query.tab === "monitors" && <TargetsTab key="monitors" kind="monitors" selected={query.monitor} />}
        {query.tab === "agents" && <TargetsTab key="agents" kind="agents" selected={query.agent} />}
      </div>
    </div>
  );
}

/** The tabs as links: a row that scrolls sideways on a phone rather than wrapping into a block. */
function TabBar({ active }: { active: Tab }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("notifications.tabs.label")} data-testid="notifications-tabs" className="-mx-4 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0">
      <div className="flex min-w-max gap-1">
        {TABS.map((tab) => {
          const current = tab === active;
          return (
            <Link
              key={tab}
              href={tabHref(tab)}
              aria-current={current ? "page" : undefined}
              data-testid={`notifications-tab-${tab}`}
              className={`-mb-px inline-flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium transition ${
                current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800"
              }`}
            >
              {t(`notifications.tabs.${tab}`)}
            </Link>
          );
        })}
      </div>
    </nav>
  );
}
