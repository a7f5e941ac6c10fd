// A group on a status page is one row with the group's state; it opens to its members' rows (name, state, 24-hour
// availability; a member group opens in turn).
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { StatusMember } from "../../api/status";
import { ChevronDownIcon } from "../../components/icons";
import { formatAvailability } from "../monitors/model";
import { MonitorStatusBadge } from "../monitors/parts";

export function GroupMembers({ groupId, name, members }: { groupId: number; name: string; members: StatusMember[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  return (
    <div className="mt-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        data-testid={`status-group-toggle-${groupId}`}
        className="inline-flex items-center gap-1 rounded text-xs font-medium text-indigo-600 hover:text-indigo-800"
      >
        <ChevronDownIcon className={`size-4 transition-transform ${open ? "" : "-rotate-90"}`} />
        {t(open ? "statusPage.group.hide" : "statusPage.group.show", { count: members.length, name })}
      </button>
      {open && (
        <ul id={listId} className="mt-2 divide-y divide-slate-100 rounded-lg bg-slate-50/70 ring-1 ring-slate-200" data-testid={`status-group-members-${groupId}`}>
          {members.length === 0 && <li className="px-3 py-2 text-xs text-slate-500">{t("statusPage.group.empty")}</li>}
          {members.map((m) => (
            <li key={m.id} className="px-3 py-2" data-testid={`status-member-${m.id}`}>
              <div className="flex items-center gap-3">
                <span className="min-w-0 flex-1 break-words text-sm text-slate-800">{m.name}</span>
                <span className="text-xs tabular-nums text-slate-500" title={t("statusPage.range24h")}>
                  {formatAvailability(m.uptimeDay)}
                </span>
                <MonitorStatusBadge status={m.status} data-testid={`status-member-status-${m.id}`} />
              </div>
              {m.members && <GroupMembers groupId={m.id} name={m.name} members={m.members} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
