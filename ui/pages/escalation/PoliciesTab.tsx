// The escalation tab of /notifications: every policy with its steps in words, the default badge and what follows it;
// editors add, edit (the form opens in the tab, `?tab=escalation&policy=new|<id>`) and delete (with confirmation).
// Viewers see the list alone.
//
// data-testids: `escalation-add`, `escalation-loading`, `escalation-load-error`, `escalation-empty`, `escalation-list`,
//   `policy-row-{id}`, `policy-name-{id}`, `policy-default-{id}`, `policy-steps-{id}` (an <ol>; each step
//   `policy-steps-{id}-{n}`), `policy-followers-{id}`, `policy-edit-{id}`, `policy-delete-{id}`, `escalation-not-found`.
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "wouter";
import { deletePolicy, listPolicies, type EscalationPolicy } from "../../api/escalation";
import { listMonitorNames, type MonitorName } from "../../api/monitors";
import { listChannels, type PublicChannel } from "../../api/notifications";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EditorOnly } from "../../components/guards";
import { PlusIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { TagChip } from "../../components/Tag";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useLoad } from "../../components/useLoad";
import { canEdit } from "../../state/session";
import { tabHref } from "../notifications/model";
import { Badge } from "../notifications/parts";
import { StepWords, type PersonOption, type ScheduleOption } from "./parts";
import { listPagingTargets } from "./pagingTargets";
import { PolicyForm } from "./PolicyForm";

interface Loaded {
  policies: EscalationPolicy[];
  channels: PublicChannel[];
  monitors: MonitorName[];
  people: PersonOption[];
  schedules: ScheduleOption[];
}

const fetchAll = async (): Promise<Loaded> => {
  // The pickers' people and schedules for the form (editors); the list names them from each policy.
  const [policies, channels, monitors, targets] = await Promise.all([listPolicies(), listChannels(), listMonitorNames(), canEdit.value ? listPagingTargets() : { people: [], schedules: [] }]);
  return { policies: policies.policies ?? [], channels: channels.channels ?? [], monitors: monitors.monitors ?? [], ...targets };
};

export function PoliciesTab({ selected }: { selected: number | "new" | null }) {
  useSignals();
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { state, reload, update } = useLoad(fetchAll, t("escalation.fetchFailed"));
  const toList = useCallback(() => navigate(tabHref("escalation")), [navigate]);

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<EscalationPolicy>({
    section: "escalation",
    message: (p) => t("escalation.confirmDelete.message", { name: p.name }),
    remove: deletePolicy,
    onDeleted: (id) => update((d) => ({ ...d, policies: d.policies.filter((p) => p.id !== id) })),
  });

  if (state.phase === "loading") return <LoadingMessage data-testid="escalation-loading">{t("escalation.loading")}</LoadingMessage>;
  if (state.phase === "error") return <LoadError data-testid="escalation-load-error" message={state.message} onRetry={() => void reload()} />;
  const { policies, channels, monitors, people, schedules } = state.data;

  // The form, for editors (a viewer following such a link sees the list).
  if (selected !== null && canEdit.value) {
    const policy = selected === "new" ? null : (policies.find((p) => p.id === selected) ?? null);
    if (selected !== "new" && !policy) {
      return (
        <Card className="px-6 py-10 text-center" data-testid="escalation-not-found">
          <p className="text-sm text-slate-600">{t("errors.ESCALATION_POLICY_NOT_FOUND")}</p>
          <ButtonLink href={tabHref("escalation")} variant="secondary" className="mt-4">
            {t("escalation.backToList")}
          </ButtonLink>
        </Card>
      );
    }
    return (
      <PolicyForm
        key={selected}
        policy={policy}
        channels={channels}
        people={people}
        schedules={schedules}
        monitors={monitors}
        onCancel={toList}
        onSaved={() => {
          void reload(true);
          toList();
        }}
      />
    );
  }

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
        <div className="min-w-0 flex-1 basis-56">
          <h2 className="text-base font-semibold text-slate-900">{t("escalation.title")}</h2>
          <p className="mt-0.5 text-sm text-slate-500">{t("escalation.description")}</p>
        </div>
        <EditorOnly>
          <ButtonLink href={tabHref("escalation", "new")} data-testid="escalation-add">
            <PlusIcon className="size-4" />
            {t("escalation.add")}
          </ButtonLink>
        </EditorOnly>
      </div>
      {policies.length === 0 ? (
        <p data-testid="escalation-empty" className="px-6 py-12 text-center text-sm text-slate-500">
          {t("escalation.empty")}
        </p>
      ) : (
        <ul data-testid="escalation-list" className="divide-y divide-slate-100">
          {policies.map((p) => (
            <PolicyRow key={p.id} policy={p} channels={channels} monitors={monitors} deleting={deletingId === p.id} onDelete={() => askDelete(p)} />
          ))}
        </ul>
      )}
      {deleteDialog}
    </Card>
  );
}

function PolicyRow({ policy: p, channels, monitors, deleting, onDelete }: { policy: EscalationPolicy; channels: PublicChannel[]; monitors: MonitorName[]; deleting: boolean; onDelete: () => void }) {
  const { t } = useTranslation();
  const names = useMemo(
    () => ({ channels: new Map(channels.map((c) => [c.id, c.name])), people: new Map(p.people.map((u) => [u.id, u.username])), schedules: new Map(p.schedules.map((s) => [s.id, s.name])) }),
    [channels, p.people, p.schedules],
  );
  const monitorName = useMemo(() => {
    const names = new Map(monitors.map((m) => [m.id, m.name]));
    return (id: number) => names.get(id) ?? t("picker.deletedItem", { id });
  }, [monitors, t]);
  const separator = t("escalation.words.separator");
  const follows = [
    p.monitorIds.length > 0 && { key: "monitors", label: t("escalation.followers.monitors"), text: p.monitorIds.map(monitorName).join(separator) },
    p.groupIds.length > 0 && { key: "groups", label: t("escalation.followers.groups"), text: p.groupIds.map(monitorName).join(separator) },
  ].filter((x) => x !== false);
  return (
    <li data-testid={`policy-row-${p.id}`} className="space-y-3 px-4 py-4 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-1 basis-48 flex-wrap items-center gap-2">
          <span data-testid={`policy-name-${p.id}`} className="min-w-0 truncate font-medium text-slate-900">
            {p.name}
          </span>
          {p.isDefault && (
            <Badge tone="indigo" title={t("escalation.defaultHint")} data-testid={`policy-default-${p.id}`}>
              {t("escalation.default")}
            </Badge>
          )}
        </div>
        <EditorOnly>
          <div className="flex flex-wrap gap-2">
            <ButtonLink href={tabHref("escalation", p.id)} variant="secondary" size="sm" data-testid={`policy-edit-${p.id}`}>
              {t("common.edit")}
            </ButtonLink>
            <Button variant="dangerGhost" size="sm" busy={deleting} onClick={onDelete} data-testid={`policy-delete-${p.id}`}>
              {t("common.delete")}
            </Button>
          </div>
        </EditorOnly>
      </div>
      <StepWords policy={p} names={names} data-testid={`policy-steps-${p.id}`} />
      <div data-testid={`policy-followers-${p.id}`} className="space-y-1 text-xs text-slate-600">
        {follows.length === 0 && p.tags.length === 0 ? (
          <p className="text-slate-500">{t(p.isDefault ? "escalation.followers.onlyDefault" : "escalation.followers.nobody")}</p>
        ) : (
          <>
            {follows.map((f) => (
              <p key={f.key} className="break-words [overflow-wrap:anywhere]">
                <span className="font-medium text-slate-700">{f.label}:</span> {f.text}
              </p>
            ))}
            {p.tags.length > 0 && (
              <p className="flex flex-wrap items-center gap-1">
                <span className="font-medium text-slate-700">{t("escalation.followers.tags")}:</span>
                {p.tags.map((tag) => (
                  <TagChip key={tag} tag={tag} />
                ))}
              </p>
            )}
          </>
        )}
      </div>
    </li>
  );
}
