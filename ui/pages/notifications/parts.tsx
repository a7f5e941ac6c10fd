// Pieces shared by the notification tabs: a modal for forms, the monitor and agent settings forms (the global ones and
// each target's own), the channel picker (also an escalation step's), small badges.
//
// data-testids (prefix `p` is "global-monitor", "global-agent" or "target"):
//   `${p}-enabled`, `${p}-channel-{channelId}` (checkboxes), `${p}-no-channels`, `${p}-none-chosen`,
//   `${p}-event-{down|recovery|budget|offline|online|cpu|memory|disk|container}`, `${p}-reminder`, `${p}-reminder-error`,
//   `${p}-threshold-{cpu|memory|disk}`, `${p}-threshold-{…}-error`; `form-dialog` (the modal), `form-dialog-close`.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import type { PublicChannel } from "../../api/notifications";
import { CheckList } from "../../components/CheckList";
import { Field, TextInput, Toggle } from "../../components/form";
import { CloseIcon } from "../../components/icons";
import { AGENT_EVENTS, MONITOR_EVENTS, REMINDER_MAX, tabHref, THRESHOLD_KEYS, THRESHOLD_MAX, THRESHOLD_MIN, type AgentDraft, type MonitorDraft, type PartErrors } from "./model";

// --- a modal for a form --------------------------------------------------------------------------------------------

interface FormDialogProps {
  open: boolean;
  title: ReactNode;
  /** While saving, Escape and the backdrop do not close it. */
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** A modal panel (role="dialog") that scrolls on small screens; Escape, the close button or the backdrop close it. */
export function FormDialog({ open, title, busy = false, onClose, children }: FormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>("input, select, textarea")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !busy) onClose();
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
    // Focus moves in once per opening, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-4">
      <div className="absolute inset-0 bg-slate-900/40 backdrop-blur-[2px]" aria-hidden="true" onClick={busy ? undefined : onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="form-dialog"
        className="relative flex max-h-[92vh] w-full max-w-lg flex-col rounded-t-xl bg-white shadow-xl ring-1 ring-slate-200 sm:rounded-xl"
      >
        <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
          <h2 id={titleId} className="min-w-0 truncate text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            disabled={busy}
            aria-label={t("common.close")}
            data-testid="form-dialog-close"
            className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-50"
          >
            <CloseIcon className="size-5" />
          </button>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
      </div>
    </div>
  );
}

// --- badges --------------------------------------------------------------------------------------------------------

export function Badge({ tone, children, title, "data-testid": testId }: { tone: "red" | "green" | "grey" | "amber" | "indigo"; children: ReactNode; title?: string; "data-testid"?: string }) {
  const tones = {
    red: "bg-red-50 text-red-700 ring-red-600/20",
    green: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
    grey: "bg-slate-100 text-slate-600 ring-slate-500/20",
    amber: "bg-amber-50 text-amber-800 ring-amber-600/25",
    indigo: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
  };
  return (
    <span title={title} data-testid={testId} className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      {children}
    </span>
  );
}

// --- the channel picker --------------------------------------------------------------------------------------------

/** Checkboxes of every channel; `legend` and `hint` say what choosing one means where it is used (an escalation step). */
export function ChannelPicker({ channels, value, onChange, prefix, enabled, legend, hint }: { channels: PublicChannel[]; value: number[]; onChange: (ids: number[]) => void; prefix: string; enabled: boolean; legend?: string; hint?: string }) {
  const { t } = useTranslation();
  const items = channels.map((c) => ({
    id: c.id,
    name: c.name,
    detail: (
      <>
        {t(`notifications.types.${c.type}`)}
        {!c.enabled && <> · {t("notifications.parts.channelDisabled")}</>}
      </>
    ),
  }));
  return (
    <div className="min-w-0 space-y-2">
      <CheckList
        items={items}
        value={value}
        onChange={onChange}
        prefix={`${prefix}-channel`}
        legend={legend ?? t("notifications.parts.channels")}
        hint={hint ?? t("notifications.parts.channelsHint")}
        emptyTestId={`${prefix}-no-channels`}
        empty={
          <>
            {t("notifications.parts.noChannels")}{" "}
            <Link href={tabHref("channels")} className="font-medium text-indigo-600 hover:underline">
              {t("notifications.parts.addChannel")}
            </Link>
          </>
        }
      />
      {enabled && channels.length > 0 && value.length === 0 && (
        <p data-testid={`${prefix}-none-chosen`} className="text-xs font-medium text-amber-700">
          {t("notifications.parts.noneChosen")}
        </p>
      )}
    </div>
  );
}

// --- the settings parts --------------------------------------------------------------------------------------------

interface PartProps<D> {
  value: D;
  onChange: (value: D) => void;
  channels: PublicChannel[];
  errors: PartErrors;
  /** Test id prefix of the controls. */
  prefix: string;
}

function EventToggles<K extends string>({ keys, value, onChange, prefix }: { keys: readonly K[]; value: Record<K, boolean>; onChange: (v: Record<K, boolean>) => void; prefix: string }) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t("notifications.parts.events")}</legend>
      <div className="mt-1 grid gap-x-4 sm:grid-cols-2">
        {keys.map((key) => (
          <Toggle
            key={key}
            name={`${prefix}-event-${key}`}
            label={t(`notifications.parts.eventLabels.${key as "down"}`)}
            hint={t(`notifications.parts.eventHints.${key as "down"}`)}
            checked={value[key]}
            onChange={(checked) => onChange({ ...value, [key]: checked })}
            data-testid={`${prefix}-event-${key}`}
          />
        ))}
      </div>
    </fieldset>
  );
}

/** What both parts start with: the on/off switch, then (dimmed while off) the channel picker and the part's own fields. */
function PartFrame<D extends { enabled: boolean; channelIds: number[] }>({ value, onChange, channels, prefix, children }: Omit<PartProps<D>, "errors"> & { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-5">
      <Toggle
        name={`${prefix}-enabled`}
        label={t("notifications.parts.enabled")}
        hint={t("notifications.parts.enabledHint")}
        checked={value.enabled}
        onChange={(enabled) => onChange({ ...value, enabled })}
        data-testid={`${prefix}-enabled`}
      />
      <div className={`space-y-5 ${value.enabled ? "" : "opacity-60"}`}>
        <ChannelPicker channels={channels} value={value.channelIds} onChange={(channelIds) => onChange({ ...value, channelIds })} prefix={prefix} enabled={value.enabled} />
        {children}
      </div>
    </div>
  );
}

/** The monitor part: on/off, channels, down/recovery, reminders. */
export function MonitorPartForm({ value, onChange, channels, errors, prefix }: PartProps<MonitorDraft>) {
  const { t } = useTranslation();
  return (
    <PartFrame value={value} onChange={onChange} channels={channels} prefix={prefix}>
      <EventToggles keys={MONITOR_EVENTS} value={value.events} onChange={(events) => onChange({ ...value, events })} prefix={prefix} />
      <div className="max-w-xs">
        <Field label={t("notifications.parts.reminder")} hint={t("notifications.parts.reminderHint")} error={errors.reminderMinutes && t(errors.reminderMinutes as never)} errorTestId={`${prefix}-reminder-error`}>
          {(id) => (
            <TextInput
              id={id}
              type="number"
              inputMode="numeric"
              min={0}
              max={REMINDER_MAX}
              step={1}
              value={value.reminderMinutes}
              onChange={(e) => onChange({ ...value, reminderMinutes: e.target.value })}
              aria-invalid={errors.reminderMinutes ? true : undefined}
              data-testid={`${prefix}-reminder`}
            />
          )}
        </Field>
      </div>
    </PartFrame>
  );
}

/** The agent part: on/off, channels, the five events, the three thresholds. */
export function AgentPartForm({ value, onChange, channels, errors, prefix }: PartProps<AgentDraft>) {
  const { t } = useTranslation();
  return (
    <PartFrame value={value} onChange={onChange} channels={channels} prefix={prefix}>
      <EventToggles keys={AGENT_EVENTS} value={value.events} onChange={(events) => onChange({ ...value, events })} prefix={prefix} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{t("notifications.parts.thresholds")}</legend>
        <p className="text-xs text-slate-500">{t("notifications.parts.thresholdsHint")}</p>
        <div className="mt-2 grid grid-cols-3 gap-3">
          {THRESHOLD_KEYS.map((key) => (
            <Field key={key} label={t(`agents.metrics.${key}`)} error={errors[key] && t(errors[key] as never)} errorTestId={`${prefix}-threshold-${key}-error`}>
              {(id) => (
                <TextInput
                  id={id}
                  type="number"
                  inputMode="decimal"
                  min={THRESHOLD_MIN}
                  max={THRESHOLD_MAX}
                  value={value.thresholds[key]}
                  onChange={(e) => onChange({ ...value, thresholds: { ...value.thresholds, [key]: e.target.value } })}
                  aria-invalid={errors[key] ? true : undefined}
                  data-testid={`${prefix}-threshold-${key}`}
                />
              )}
            </Field>
          ))}
        </div>
      </fieldset>
      <ContainerFields value={value} onChange={onChange} errors={errors} prefix={prefix} />
    </PartFrame>
  );
}

/** Which containers to watch, and how many restarts in how many minutes count as trouble. */
function ContainerFields({ value, onChange, errors, prefix }: Omit<PartProps<AgentDraft>, "channels">) {
  const { t } = useTranslation();
  const set = (patch: Partial<AgentDraft["containers"]>) => onChange({ ...value, containers: { ...value.containers, ...patch } });
  const error = (key: "watch" | "restarts" | "restartMinutes") => errors[key] && t(errors[key] as never);
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t("notifications.parts.containers")}</legend>
      <p className="text-xs text-slate-500">{t("notifications.parts.containersHint")}</p>
      <div className="mt-2 grid gap-3 sm:grid-cols-[1fr_8rem_8rem]">
        <Field label={t("notifications.parts.watch")} hint={t("notifications.parts.watchHint")} error={error("watch")} errorTestId={`${prefix}-watch-error`}>
          {(id) => <TextInput id={id} value={value.containers.watch} placeholder="web, db" onChange={(e) => set({ watch: e.target.value })} data-testid={`${prefix}-watch`} />}
        </Field>
        <Field label={t("notifications.parts.restarts")} error={error("restarts")} errorTestId={`${prefix}-restarts-error`}>
          {(id) => <TextInput id={id} type="number" inputMode="numeric" min={0} max={1000} value={value.containers.restarts} onChange={(e) => set({ restarts: e.target.value })} data-testid={`${prefix}-restarts`} />}
        </Field>
        <Field label={t("notifications.parts.restartMinutes")} error={error("restartMinutes")} errorTestId={`${prefix}-restart-minutes-error`}>
          {(id) => <TextInput id={id} type="number" inputMode="numeric" min={1} max={1440} value={value.containers.restartMinutes} onChange={(e) => set({ restartMinutes: e.target.value })} data-testid={`${prefix}-restart-minutes`} />}
        </Field>
      </div>
    </fieldset>
  );
}
