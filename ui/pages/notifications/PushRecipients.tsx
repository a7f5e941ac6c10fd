// The webpush channel's "People" field: every active account, each with a checkbox and how many devices it has turned
// push on for (someone with none gets nothing until they do, on their profile page). The field's value is the chosen
// user ids, comma-separated, as channelDraft.ts keeps every field as text.
//
// data-testids: `channel-field-userIds` (the list), `push-recipient-{id}` (a person's checkbox).
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { listRecipients, type PushRecipient } from "../../api/push";
import { Field } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { RoleBadge } from "../../components/RoleBadge";
import { useLoad } from "../../components/useLoad";
import { splitUserIds } from "./channelDraft";

export function PushRecipientsField({ value, onChange, error, hint }: { value: string; onChange: (value: string) => void; error?: string; hint?: string }) {
  const { t } = useTranslation();
  const fetch = useCallback(async () => (await listRecipients()).recipients, []);
  const { state, reload } = useLoad<PushRecipient[]>(fetch, t("notifications.channelForm.recipientsFailed"));
  const chosen = new Set(splitUserIds(value));
  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange([...next].sort((a, b) => a - b).join(", "));
  };
  return (
    <Field label={t("notifications.channelForm.fields.userIds")} hint={hint} error={error} errorTestId="channel-error-userIds">
      {() => (
        <div data-testid="channel-field-userIds" className="max-h-56 overflow-y-auto rounded-lg ring-1 ring-inset ring-slate-300">
          {state.phase === "loading" && <LoadingMessage data-testid="push-recipients-loading">{t("notifications.channelForm.recipientsLoading")}</LoadingMessage>}
          {state.phase === "error" && <LoadError inline className="p-3" message={state.message} onRetry={() => void reload()} data-testid="push-recipients-error" />}
          {state.phase === "loaded" && (
            <ul className="divide-y divide-slate-100">
              {state.data.map((person) => (
                <li key={person.id}>
                  <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                    <input
                      type="checkbox"
                      checked={chosen.has(person.id)}
                      onChange={(e) => toggle(person.id, e.target.checked)}
                      data-testid={`push-recipient-${person.id}`}
                      className="size-4 shrink-0 rounded border-slate-300 accent-indigo-600"
                    />
                    <span className="min-w-0 flex-1 truncate font-medium text-slate-800">{person.username}</span>
                    <RoleBadge role={person.role} />
                    <span className={`text-xs ${person.devices ? "text-slate-500" : "text-amber-700"}`}>{t("notifications.channelForm.recipientDevices", { count: person.devices })}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Field>
  );
}
