// A group's page: its members with their states (live), each linking to its own page. A member's page names its group.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { getMonitor, listMembers, type PublicMonitor } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { useLive, useLiveChecks } from "../../../state/live";
import { translateCheckError } from "../checkError";
import { displayStatus, formatAvailability } from "../model";
import { MonitorStatusBadge, TypeBadge } from "../parts";
import { SectionTitle } from "./layout";

/**
 * The group's members (GET /api/monitors/:id/members: a few rows, not every monitor), read again when a change may
 * concern them — a member's state or edit, a monitor moved in, maintenance, a reconnect — and kept current from each
 * member's checks in between.
 */
function useMembers(groupId: number) {
  const [members, setMembers] = useState<PublicMonitor[] | null>(null);
  const asked = useRef(0);
  const load = useCallback(() => {
    const mine = ++asked.current;
    listMembers(groupId)
      .then((reply) => mine === asked.current && setMembers(reply.monitors)) // of overlapping reads, the newest counts
      .catch(() => {}); // the card keeps what it showed
  }, [groupId]);
  useEffect(load, [load]);
  const isMember = (id: number) => members?.some((m) => m.id === id) ?? false;
  useLive("monitor.status", (e) => isMember(e.monitorId) && load());
  useLive("monitor.change", (e) => (isMember(e.monitorId) || e.monitor?.parentId === groupId) && load());
  useLive("maintenance.change", (e) => [...e.monitors.entered, ...e.monitors.left].some(isMember) && load());
  useLive("hello", load);
  // Only the members' checks reach this browser (not every monitor's); the ids change with a read, not with a check.
  const ids = members?.map((m) => m.id).join(",") ?? "";
  const watched = useMemo(() => (ids ? ids.split(",").map(Number) : []), [ids]);
  useLiveChecks(watched, (e) =>
    setMembers((list) => list && list.map((m) => (m.id === e.monitorId ? { ...m, status: e.status, uptime24h: e.uptime24h, consecutiveFailures: e.consecutiveFailures, lastError: e.result.error } : m))),
  );
  return members;
}

export function MembersCard({ group }: { group: PublicMonitor }) {
  const { t } = useTranslation();
  const monitors = useMembers(group.id);
  const members = monitors ?? [];
  return (
    <Card data-testid="monitor-members">
      <SectionTitle>
        {t("monitors.group.members")} <span className="font-normal text-slate-400">· {t(`monitors.group.rules.${group.groupRule}`)}</span>
      </SectionTitle>
      {monitors !== null && members.length === 0 ? (
        <p className="px-5 py-4 text-sm text-slate-500 sm:px-6" data-testid="monitor-members-none">
          {t("monitors.group.noMembers")}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {members.map((m) => {
            const reason = m.active && m.status === "down" && m.lastError ? translateCheckError(t, m.lastError) : null;
            return (
              <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3 sm:px-6" data-testid={`monitor-member-${m.id}`} data-status={displayStatus(m)}>
                <TypeBadge type={m.type} />
                <Link href={`/monitors/${m.id}`} className="min-w-0 flex-1 truncate font-medium text-slate-900 hover:text-indigo-600">
                  {m.name}
                </Link>
                <span className="text-xs tabular-nums text-slate-500">{formatAvailability(m.uptime24h, t("common.dash"))}</span>
                <MonitorStatusBadge status={displayStatus(m)} data-testid={`monitor-member-status-${m.id}`} />
                {reason && <span className="basis-full truncate text-xs text-red-700">{reason}</span>}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** "In group: Shop" under a member's name, linking to the group. */
export function ParentLine({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const [parent, setParent] = useState<{ id: number; name: string } | null>(null);
  const parentId = monitor.parentId;
  useEffect(() => {
    if (parentId === null) return;
    let live = true;
    getMonitor(parentId)
      .then((reply) => live && setParent({ id: parentId, name: reply.monitor.name }))
      .catch(() => {}); // the id is shown instead
    return () => {
      live = false;
    };
  }, [parentId]);
  if (parentId === null) return null;
  return (
    <p className="mt-1 text-sm text-slate-500" data-testid="monitor-parent-line">
      {t("monitors.group.partOf")}:{" "}
      <Link href={`/monitors/${parentId}`} className="font-medium text-indigo-600 hover:underline">
        {parent?.id === parentId ? parent.name : `#${parentId}`}
      </Link>
    </p>
  );
}
