// The form's group parts: the "Group" select every monitor has (which group it belongs to), and a group's own rule.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { GROUP_RULES, listMonitorNames, type GroupRule, type MonitorName } from "../../api/monitors";
import { Field, SelectInput } from "../../components/form";

/** The groups a monitor may join: every group but itself and those inside it (the server refuses a cycle too). */
export function eligibleGroups(monitors: readonly MonitorName[], self: number | undefined): MonitorName[] {
  const inside = new Set<number>(self === undefined ? [] : [self]);
  // Members of members: repeat until nothing new joins (the tree is shallow).
  for (let grew = true; grew; ) {
    grew = false;
    for (const m of monitors) {
      if (m.parentId !== null && inside.has(m.parentId) && !inside.has(m.id)) {
        inside.add(m.id);
        grew = true;
      }
    }
  }
  return monitors.filter((m) => m.type === "group" && !inside.has(m.id)).sort((a, b) => a.name.localeCompare(b.name));
}

export function ParentSelect({ value, self, error, onChange }: { value: string; self?: number; error?: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const [groups, setGroups] = useState<MonitorName[]>([]);
  useEffect(() => {
    let live = true;
    listMonitorNames()
      .then((reply) => live && setGroups(eligibleGroups(reply.monitors, self)))
      .catch(() => {}); // without the list, only "none" and the current group are offered
    return () => {
      live = false;
    };
  }, [self]);
  const known = value === "" || groups.some((g) => String(g.id) === value);
  return (
    <Field label={t("monitors.group.parent")} optionalLabel={t("common.optional")} hint={t("monitors.group.parentHint")} error={error} errorTestId="monitor-error-parentId">
      {(id) => (
        <SelectInput id={id} name="parentId" value={value} onChange={(e) => onChange(e.target.value)} data-testid="monitor-parent" aria-invalid={error ? true : undefined}>
          <option value="">{t("monitors.group.none")}</option>
          {!known && <option value={value}>#{value}</option>}
          {groups.map((g) => (
            <option key={g.id} value={String(g.id)}>
              {g.name}
            </option>
          ))}
        </SelectInput>
      )}
    </Field>
  );
}

export function GroupRuleField({ value, onChange }: { value: GroupRule; onChange: (rule: GroupRule) => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3" data-testid="monitor-group-fields">
      <Field label={t("monitors.group.rule")} hint={t("monitors.group.ruleHint")}>
        {(id) => (
          <SelectInput id={id} name="groupRule" value={value} onChange={(e) => onChange(e.target.value as GroupRule)} data-testid="monitor-group-rule">
            {GROUP_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {t(`monitors.group.rules.${rule}`)}
              </option>
            ))}
          </SelectInput>
        )}
      </Field>
      <p className="text-xs text-slate-500">{t("monitors.group.activeHint")}</p>
    </div>
  );
}
