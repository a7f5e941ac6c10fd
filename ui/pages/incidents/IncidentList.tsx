// /incidents: every incident, open ones first, with a filter by state and "New incident".
//
// data-testids: `incidents-create-button`, `incidents-filter-{open|resolved}`, `incidents-list`, `incident-row-{id}`,
//   `incidents-empty`.
import { EditorOnly } from "../../components/guards";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { listIncidents, type PublicIncident } from "../../api/incidents";
import { ButtonLink } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { FilterPills } from "../../components/FilterPills";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { Ago } from "../../components/time";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { ImpactBadge, StateBadge } from "./parts";

export default function IncidentList() {
  const { t } = useTranslation();
  useDocumentTitle(t("incidents.title"));
  const filter = new URLSearchParams(useSearch()).get("status");
  const fetch = useCallback(async () => (await listIncidents()).incidents ?? [], []);
  const { state, reload } = useLoad(fetch, t("incidents.fetchFailed"));
  const all = state.phase === "loaded" ? state.data : [];
  const open = all.filter((x) => x.state !== "resolved");
  const resolved = all.filter((x) => x.state === "resolved");
  const shown = filter === "open" ? open : filter === "resolved" ? resolved : [...open, ...resolved];
  return (
    <div>
      <PageHeader
        title={t("incidents.title")}
        description={t("incidents.subtitle")}
        actions={
          <EditorOnly>
          <ButtonLink href="/incidents/new" data-testid="incidents-create-button">
            {t("incidents.create")}
          </ButtonLink>
          </EditorOnly>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="incidents-loading">{t("incidents.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="incidents-error" />}
      {state.phase === "loaded" && (
        <>
          <FilterPills
            base="/incidents"
            label={t("incidents.filterLabel")}
            value={filter === "open" || filter === "resolved" ? filter : null}
            testId="incidents-filter"
            className="mb-4"
            options={[
              { key: null, label: t("incidents.filter.all"), count: all.length },
              { key: "open", label: t("incidents.filter.open"), count: open.length },
              { key: "resolved", label: t("incidents.filter.resolved"), count: resolved.length },
            ]}
          />
          <Card>
            {shown.length === 0 ? (
              <p className="p-8 text-center text-sm text-slate-500" data-testid="incidents-empty">
                {all.length === 0 ? t("incidents.empty") : t("incidents.emptyFiltered")}
              </p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="incidents-list">
                {shown.map((x) => (
                  <IncidentRow key={x.id} incident={x} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}

function IncidentRow({ incident: x }: { incident: PublicIncident }) {
  const { t } = useTranslation();
  const latest = x.updates[x.updates.length - 1];
  return (
    <li data-testid={`incident-row-${x.id}`}>
      <Link href={`/incidents/${x.id}`} className="block space-y-1 p-4 hover:bg-slate-50">
        <div className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 break-words font-medium text-slate-900" data-testid="incident-title">
            {x.title}
          </span>
          <ImpactBadge impact={x.impact} />
          <StateBadge state={x.state} data-testid="incident-state" />
        </div>
        {latest && <p className="line-clamp-2 text-sm text-slate-600">{latest.message}</p>}
        <p className="text-xs text-slate-500">
          {t("incidents.affects", { monitors: x.monitorIds.length, agents: x.agentIds.length })} · <Ago at={latest?.at ?? x.createdAt} never="" />
        </p>
      </Link>
    </li>
  );
}
