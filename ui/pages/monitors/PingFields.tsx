// The ping monitor's target fields: host, packets per check, address family, the loss threshold and an optional
// round-trip limit; and a warning when this server cannot ping at all (no ICMP socket allowed, no ping program).
//
// data-testids: `monitor-ping-unavailable`, `monitor-ping-method`.
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { getPingSupport, LIMITS, PING_FAMILIES, type PingFamily } from "../../api/monitors";
import { Field, SelectInput } from "../../components/form";
import type { MonitorFormValues } from "./formModel";

type Input = (id: string) => ReactNode;

export function PingFields({ values, update, problem, hostInput, numberInput }: {
  values: MonitorFormValues;
  update: (patch: Partial<MonitorFormValues>) => void;
  problem: (field: string) => string | undefined;
  hostInput: Input;
  numberInput: (name: "pingCount" | "pingLossThreshold" | "maxResponseTime", min: number, max: number) => Input;
}) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<"socket" | "program" | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    getPingSupport().then((r) => live && setMethod(r.method), () => {});
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="space-y-5">
      {method === null && (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" data-testid="monitor-ping-unavailable">
          {t("monitors.form.pingUnavailable")}
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-[1fr_10rem]">
        <Field label={t("monitors.form.host")} hint={t("monitors.form.hostHint")} error={problem("host")} errorTestId="monitor-error-host">
          {hostInput}
        </Field>
        <Field label={t("monitors.form.pingFamily")}>
          {(id) => (
            <SelectInput id={id} name="pingFamily" value={values.pingFamily} onChange={(e) => update({ pingFamily: e.target.value as PingFamily })}>
              {PING_FAMILIES.map((f) => (
                <option key={f} value={f}>
                  {t(`monitors.form.pingFamilies.${f}`)}
                </option>
              ))}
            </SelectInput>
          )}
        </Field>
      </div>
      <div className="grid gap-5 sm:grid-cols-3">
        <Field label={t("monitors.form.pingCount")} hint={t("monitors.form.pingCountHint")} error={problem("pingCount")} errorTestId="monitor-error-pingCount">
          {numberInput("pingCount", 1, LIMITS.maxPingCount)}
        </Field>
        <Field label={t("monitors.form.pingLoss")} hint={t("monitors.form.pingLossHint")} error={problem("pingLossThreshold")} errorTestId="monitor-error-pingLossThreshold">
          {numberInput("pingLossThreshold", 1, 100)}
        </Field>
        <Field
          label={t("monitors.form.pingMaxRtt")}
          optionalLabel={t("common.optional")}
          hint={t("monitors.form.pingMaxRttHint")}
          error={problem("maxResponseTime")}
          errorTestId="monitor-error-maxResponseTime"
        >
          {numberInput("maxResponseTime", 1, LIMITS.maxResponseTime)}
        </Field>
      </div>
      {method && (
        <p className="text-xs text-slate-500" data-testid="monitor-ping-method">
          {t(`monitors.form.pingMethod.${method}`)}
        </p>
      )}
    </div>
  );
}
