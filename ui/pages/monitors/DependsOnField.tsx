// The monitor form's "Depends on": the monitors this one depends on, picked by name from the others (the server
// refuses cycles; its sentence shows here). data-testids: `monitor-depends-on` and the picker's (TargetPicker.tsx).
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LIMITS, listMonitorNames } from "../../api/monitors";
import { TargetPicker, type PickerItem } from "../../components/TargetPicker";

interface DependsOnFieldProps {
  /** The monitor edited (left out of the choices); undefined while creating. */
  monitorId?: number;
  selected: number[];
  onChange: (ids: number[]) => void;
  error: string | undefined;
}

export function DependsOnField({ monitorId, selected, onChange, error }: DependsOnFieldProps) {
  const { t } = useTranslation();
  const [items, setItems] = useState<PickerItem[]>([]);
  useEffect(() => {
    let live = true;
    listMonitorNames()
      .then((r) => live && setItems((r.monitors ?? []).filter((m) => m.id !== monitorId).map((m) => ({ id: m.id, name: m.name, detail: m.target }))))
      // Without the list the picker says there is nothing to choose; the chosen ones stay as they are.
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [monitorId]);

  return (
    <TargetPicker
      prefix="monitor-depends-on"
      title={t("monitors.form.dependsOn")}
      hint={t("monitors.form.dependsOnHint")}
      selectedTitle={t("monitors.form.dependsOnChosen", { count: selected.length })}
      noneText={t("monitors.form.dependsOnNone")}
      searchLabel={t("statusConfig.searchMonitors")}
      emptyText={t("statusConfig.noMonitors")}
      items={items}
      selected={selected}
      onChange={onChange}
      error={error}
      max={LIMITS.maxDependencies}
      limitText={t("monitors.form.dependsOnLimit", { max: LIMITS.maxDependencies })}
    />
  );
}
