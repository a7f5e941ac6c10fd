import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { ManagedKind } from "../api/configFile";
import { managedOf, reloadManaged } from "../state/managed";

/** What each screen marks: a monitor may be a group in the file. */
export const MANAGED_KINDS = {
  monitor: ["monitor", "group"],
  channel: ["channel"],
  statusPage: ["status_page"],
  maintenance: ["maintenance"],
} as const satisfies Record<string, readonly ManagedKind[]>;
type What = keyof typeof MANAGED_KINDS;

/** Reads the marks again when a screen showing them opens (an edit made a moment ago shows as drift). */
export function useManagedMarks(): void {
  useEffect(() => {
    void reloadManaged();
  }, []);
}

/** "Managed by a configuration file" (its key in the title), and "Changed here since the last apply" when drifted. */
export function ManagedBadge({ what, id, testId }: { what: What; id: number | string; testId?: string }) {
  useSignals();
  const { t } = useTranslation();
  const m = managedOf(MANAGED_KINDS[what], id);
  if (!m) return null;
  return (
    <span className="inline-flex shrink-0 items-center gap-1" data-testid={testId ?? "managed-badge"} data-key={m.key} data-drifted={m.drifted}>
      <span className="rounded-full bg-violet-50 px-2 py-0.5 text-xs font-medium text-violet-700 ring-1 ring-inset ring-violet-600/20" title={t("configFile.keyTitle", { key: m.key })}>
        {t("configFile.badge")}
      </span>
      {m.drifted && (
        <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-600/20" data-testid={`${testId ?? "managed-badge"}-drifted`}>
          {t("configFile.drifted")}
        </span>
      )}
    </span>
  );
}

/** Above an edit form: the next apply undoes changes made here (and whether some were made already). */
export function ManagedWarning({ what, id }: { what: What; id: number | string }) {
  useSignals();
  const { t } = useTranslation();
  useManagedMarks();
  const m = managedOf(MANAGED_KINDS[what], id);
  if (!m) return null;
  return (
    <div role="note" data-testid="managed-warning" className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p>{t(`configFile.warning.${what}`, { key: m.key })}</p>
      {m.drifted && (
        <p className="mt-1 font-medium" data-testid="managed-warning-drifted">
          {t("configFile.drifted")}
        </p>
      )}
    </div>
  );
}
