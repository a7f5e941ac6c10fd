// What an incident is and what it affects: the part of the form shared by "new incident" and an incident's page.
//
// data-testids: `incident-title-input`, `incident-impact`, the pickers `incident-monitors` / `incident-agents`
//   (components/TargetPicker.tsx), `incident-page-{id}` (checkboxes).
import { useTranslation } from "react-i18next";
import { listAgents } from "../../api/agents";
import { INCIDENT_IMPACTS, INCIDENT_MESSAGE_MAX, INCIDENT_STATES, INCIDENT_TITLE_MAX, type IncidentImpact, type IncidentPatch, type IncidentState } from "../../api/incidents";
import { listMonitorNames } from "../../api/monitors";
import { listStatusPages } from "../../api/status";
import { Card, CardHeader } from "../../components/Card";
import { Field, SelectInput, TextInput } from "../../components/form";
import { TargetPicker, type PickerItem } from "../../components/TargetPicker";

export interface Choices {
  monitors: PickerItem[];
  agents: PickerItem[];
  pages: { id: number; title: string; slug: string }[];
}

/** What the form can pick from. */
export async function fetchChoices(): Promise<Choices> {
  const [monitors, agents, pages] = await Promise.all([listMonitorNames(), listAgents(), listStatusPages()]);
  return {
    monitors: (monitors.monitors ?? []).map((m) => ({ id: m.id, name: m.name, detail: m.target })),
    agents: (agents.agents ?? []).map((a) => ({ id: a.id, name: a.name, detail: a.hostname })),
    pages: (pages.pages ?? []).map((p) => ({ id: p.id, title: p.title, slug: p.slug })),
  };
}

export type IncidentDraft = Required<IncidentPatch>;

export function IncidentFields({ draft, onChange, choices, titleError }: { draft: IncidentDraft; onChange: (patch: Partial<IncidentDraft>) => void; choices: Choices; titleError?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Card>
        <CardHeader title={t("incidents.form.about")} />
        <div className="grid gap-5 px-5 py-5 sm:grid-cols-[1fr_12rem] sm:px-6">
          <Field label={t("incidents.form.title")} error={titleError} errorTestId="incident-error-title">
            {(id) => <TextInput id={id} value={draft.title} maxLength={INCIDENT_TITLE_MAX} onChange={(e) => onChange({ title: e.target.value })} placeholder={t("incidents.form.titlePlaceholder")} data-testid="incident-title-input" />}
          </Field>
          <Field label={t("incidents.form.impact")}>
            {(id) => (
              <SelectInput id={id} value={draft.impact} onChange={(e) => onChange({ impact: e.target.value as IncidentImpact })} data-testid="incident-impact">
                {INCIDENT_IMPACTS.map((i) => (
                  <option key={i} value={i}>
                    {t(`incidents.impacts.${i}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
        </div>
      </Card>
      <TargetPicker
        prefix="incident-monitors"
        title={t("incidents.form.monitorsTitle")}
        hint={t("incidents.form.targetsHint")}
        selectedTitle={t("maintenance.form.chosen", { count: draft.monitorIds.length })}
        noneText={t("maintenance.form.noneChosen")}
        searchLabel={t("statusConfig.searchMonitors")}
        emptyText={t("statusConfig.noMonitors")}
        items={choices.monitors}
        selected={draft.monitorIds}
        onChange={(monitorIds) => onChange({ monitorIds })}
        error={undefined}
      />
      {choices.agents.length > 0 && (
        <TargetPicker
          prefix="incident-agents"
          title={t("incidents.form.agentsTitle")}
          hint={t("incidents.form.targetsHint")}
          selectedTitle={t("maintenance.form.chosen", { count: draft.agentIds.length })}
          noneText={t("maintenance.form.noneChosen")}
          searchLabel={t("statusConfig.searchAgents")}
          emptyText={t("statusConfig.noAgents")}
          items={choices.agents}
          selected={draft.agentIds}
          onChange={(agentIds) => onChange({ agentIds })}
          error={undefined}
        />
      )}
      <Card>
        <CardHeader title={t("incidents.form.pagesTitle")} description={t("incidents.form.pagesHint")} />
        <div className="flex flex-wrap gap-4 px-5 py-5 sm:px-6">
          {choices.pages.map((p) => (
            <label key={p.id} className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={draft.pageIds.includes(p.id)}
                onChange={(e) => onChange({ pageIds: e.target.checked ? [...draft.pageIds, p.id] : draft.pageIds.filter((x) => x !== p.id) })}
                data-testid={`incident-page-${p.id}`}
                className="size-4 accent-indigo-600"
              />
              {p.title || `/status/${p.slug}`}
            </label>
          ))}
        </div>
      </Card>
    </>
  );
}

export const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";

/** An update's state and message (the first one of a new incident, or the next one posted). */
export function UpdateFields({ state, message, onState, onMessage, rows, testId, messageError }: { state: IncidentState; message: string; onState: (s: IncidentState) => void; onMessage: (m: string) => void; rows: number; testId: string; messageError?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t("incidents.form.state")}>
        {(id) => (
          <SelectInput id={id} value={state} onChange={(e) => onState(e.target.value as IncidentState)} data-testid={`${testId}-state`}>
            {INCIDENT_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`incidents.states.${s}`)}
              </option>
            ))}
          </SelectInput>
        )}
      </Field>
      <Field label={t("incidents.form.message")} hint={t("incidents.form.messageHint")} error={messageError} errorTestId="incident-error-message">
        {(id) => <textarea id={id} rows={rows} maxLength={INCIDENT_MESSAGE_MAX} value={message} onChange={(e) => onMessage(e.target.value)} className={TEXTAREA} data-testid={`${testId}-message`} />}
      </Field>
    </>
  );
}
