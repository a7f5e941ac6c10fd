// The public status page (/status): no sign-in, no navbar, no footer. Title, description, the announcement, an
// overall banner, then the selected monitors (uptime, 90 daily bars, a 24-hour sparkline) and agents. It asks the
// server again every 30 s while the tab is visible.
//
// Built for hundreds of monitors: rows re-render only when their data changed (sameMonitor), the bars carry no React
// state or handlers of their own (one set of handlers per strip, found by index), and one tooltip element serves
// every bar on the page.
//
// data-testids: `status-page`, `status-loading`, `status-error`, `status-title`, `status-description`,
//   `status-announcement` (data-severity), `status-overall` (data-status), `status-down-list`, `status-offline-list`,
//   `status-empty`, `status-monitors`, `status-monitor-{id}`, `status-monitor-status-{id}` (data-status),
//   `status-uptime-{day|month|quarter}-{id}`, `status-bars-{id}`, `status-bar` (data-level), `status-spark-{id}`,
//   `status-spark-empty-{id}`, `status-agents`, `status-agent-{id}`, `status-agent-status-{id}` (data-status),
//   `status-agent-{cpu|memory|disk|load|uptime|last}-{id}`, `status-tooltip`, `status-updated`, `status-refresh-failed`.
import { SubscribeForm } from "./SubscribeForm";
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import { fetchStatusPage, STATUS_POLL_MS, unlockStatusPage, type Announcement, type PublicStatusPage } from "../../api/status";
import { Button } from "../../components/Button";
import { TextInput } from "../../components/form";
import { token } from "../../state/session";
import { IncidentHistory, IncidentSection } from "./IncidentSection";
import { usePolling } from "../../components/hooks";
import { CheckIcon, LogoMark } from "../../components/icons";
import { LanguageSwitch } from "../../components/LanguageSwitch";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useFormatDateTime } from "../../components/time";
import { AvailabilityLegend } from "../../components/AvailabilityLegend";
import { AgentSection } from "./AgentSection";
import { MaintenanceSection } from "./MaintenanceSection";
import { DayTooltip, MonitorSection, type DayTip } from "./MonitorSection";
import { firstNames } from "./model";

type PageState =
  | { phase: "loading" }
  | { phase: "error"; message: string }
  /** A password page without (a valid) unlock token, or a private page for a visitor not signed in. */
  | { phase: "locked"; kind: "password" | "private" }
  | { phase: "loaded"; page: PublicStatusPage; /** The last refresh failed: the page shown is older. */ stale: boolean };

/**
 * /status (the default page), /status/{slug}, or — on a page's custom domain — "/" (`slug` given by the app shell).
 */
export default function StatusPage({ slug: forced }: { slug?: string }) {
  const { t, i18n } = useTranslation();
  useSignals();
  const params = useParams<{ slug?: string }>();
  const slug = forced ?? params.slug ?? null;
  const [state, setState] = useState<PageState>({ phase: "loading" });
  const tip = useRef<DayTip>(null);
  const session = token.value;

  // Depends on the i18n instance, not on `t`: a language switch re-renders, it does not refetch.
  const load = useCallback(async () => {
    try {
      const res = await fetchStatusPage(slug, session);
      if (res.status === 401) return setState({ phase: "locked", kind: res.code === "STATUS_PAGE_PASSWORD" ? "password" : "private" });
      if (res.status === 404) return setState({ phase: "error", message: i18n.t("statusPage.notFound") });
      if (!res.page) throw new Error(String(res.status));
      setState({ phase: "loaded", page: res.page, stale: false });
    } catch (err) {
      // Once something is shown, keep it (with a note) rather than blank the page during an outage.
      setState((s) => (s.phase === "loaded" ? { ...s, stale: true } : { phase: "error", message: errorMessage(err, i18n.t("errors.fetchFailed")) }));
    }
  }, [i18n, slug, session]);

  useEffect(() => {
    setState({ phase: "loading" });
    void load();
  }, [load]);
  // Also after a failed first load: the page recovers by itself once the server answers again.
  usePolling(load, STATUS_POLL_MS, state.phase !== "locked");

  const page = state.phase === "loaded" ? state.page : null;
  const title = page?.title || t("statusPage.title");
  useEffect(() => {
    document.title = title; // the operator's title alone: this page is theirs, not Vigil's
  }, [title]);

  return (
    <div data-testid="status-page" className="relative min-h-screen bg-slate-50">
      <header className="mx-auto flex max-w-4xl items-center justify-between gap-3 px-4 py-5 sm:px-6">
        {page?.logo ? (
          <img src={page.logo} alt="" data-testid="status-logo" className="h-9 max-w-48 object-contain" />
        ) : (
          <Link href="/" className="flex items-center gap-2" aria-label={t("nav.home")}>
            <LogoMark className="size-8" />
            <span className="text-lg font-semibold text-slate-900">{t("app.name")}</span>
          </Link>
        )}
        <LanguageSwitch />
      </header>
      <main className="mx-auto max-w-4xl space-y-6 px-4 pb-16 sm:px-6">
        {state.phase === "loading" && <LoadingMessage data-testid="status-loading">{t("statusPage.loading")}</LoadingMessage>}
        {state.phase === "error" && (
          <>
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{title}</h1>
            <LoadError data-testid="status-error" message={state.message} onRetry={() => void load()} className="rounded-xl border border-slate-200 bg-white" />
          </>
        )}
        {state.phase === "locked" && <Locked kind={state.kind} slug={slug} onUnlocked={() => void load()} />}
        {page && <PageBody page={page} title={title} stale={state.phase === "loaded" && state.stale} tip={tip} />}
      </main>
      <DayTooltip ref={tip} />
    </div>
  );
}

/** A password page asks for its password; a private one sends the visitor to sign in. */
function Locked({ kind, slug, onUnlocked }: { kind: "password" | "private"; slug: string | null; onUnlocked: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  if (kind === "private" || !slug) {
    return (
      <div data-testid="status-private" className="rounded-xl border border-slate-200 bg-white px-6 py-14 text-center">
        <p className="font-medium text-slate-800">{t("statusPage.private")}</p>
        <Link href="/login" className="mt-3 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-700">
          {t("nav.login")}
        </Link>
      </div>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    const res = await unlockStatusPage(slug, password).catch(() => ({ ok: false, code: undefined }));
    setBusy(false);
    if (res.ok) onUnlocked();
    else setError(t(res.code === "TOO_MANY_ATTEMPTS" ? "statusPage.unlock.tooMany" : "statusPage.unlock.wrong"));
  };
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="status-unlock" className="mx-auto max-w-sm space-y-4 rounded-xl border border-slate-200 bg-white p-6">
      <p className="font-medium text-slate-800">{t("statusPage.unlock.title")}</p>
      <TextInput type="password" value={password} onChange={(e) => setPassword(e.target.value)} aria-label={t("statusPage.unlock.password")} placeholder={t("statusPage.unlock.password")} data-testid="status-unlock-password" />
      {error && (
        <p role="alert" className="text-sm text-red-600" data-testid="status-unlock-error">
          {error}
        </p>
      )}
      <Button type="submit" busy={busy} className="w-full" data-testid="status-unlock-submit">
        {t("statusPage.unlock.submit")}
      </Button>
    </form>
  );
}

function PageBody({ page, title, stale, tip }: { page: PublicStatusPage; title: string; stale: boolean; tip: RefObject<DayTip | null> }) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  const empty = page.monitors.length === 0 && page.agents.length === 0;
  const incidentTitles = useIncidentTitles(page);
  return (
    <>
      <div>
        <h1 data-testid="status-title" className="break-words text-3xl font-semibold tracking-tight text-slate-900">
          {title}
        </h1>
        {page.description && (
          <p data-testid="status-description" className="mt-2 whitespace-pre-line break-words text-slate-600">
            {page.description}
          </p>
        )}
      </div>
      {page.announcement && <AnnouncementBox announcement={page.announcement} />}
      {empty ? (
        <div data-testid="status-empty" className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
          <p className="font-medium text-slate-800">{t("statusPage.empty")}</p>
          <p className="mt-1 text-sm text-slate-500">{t("statusPage.emptyHint")}</p>
        </div>
      ) : (
        <>
          <OverallBanner overall={page.overall} />
          {page.incidents.open.length > 0 && <IncidentSection incidents={page.incidents.open} />}
          {page.maintenance.length > 0 && <MaintenanceSection windows={page.maintenance} />}
          {page.groups.length > 0 ? (
            <GroupedSections page={page} tip={tip} />
          ) : (
            <>
              {page.monitors.length > 0 && <MonitorSection monitors={page.monitors} tip={tip} incidents={incidentTitles} />}
              {page.agents.length > 0 && <AgentSection agents={page.agents} />}
            </>
          )}
          {page.monitors.length > 0 && <AvailabilityLegend className="px-1" data-testid="status-legend" />}
          {page.incidents.resolved.length > 0 && <IncidentHistory incidents={page.incidents.resolved} />}
        </>
      )}
      <SubscribeForm slug={page.slug} />
      <div className="space-y-1 text-center text-xs text-slate-400">
        {stale && (
          <p data-testid="status-refresh-failed" role="status" className="font-medium text-amber-700">
            {t("statusPage.refreshFailed", { time: format(page.generatedAt) })}
          </p>
        )}
        <p data-testid="status-updated" title={format.zoneOf(page.generatedAt)}>
          {t("statusPage.updated", { time: format(page.generatedAt) })}
        </p>
        <p className="space-x-3" data-testid="status-feeds">
          <a href={`/api/status/pages/${page.slug}/feed.atom`} className="hover:text-slate-600">Atom</a>
          <a href={`/api/status/pages/${page.slug}/feed.rss`} className="hover:text-slate-600">RSS</a>
          <a href={`/api/status/pages/${page.slug}/summary.json`} className="hover:text-slate-600">JSON</a>
        </p>
      </div>
    </>
  );
}

// --- announcement and banner ---------------------------------------------------------------------------------------

const SEVERITY_STYLE: Record<Announcement["severity"], { box: string; tag: string }> = {
  info: { box: "border-sky-200 bg-sky-50 text-sky-950", tag: "bg-sky-600" },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-950", tag: "bg-amber-500" },
  outage: { box: "border-red-300 bg-red-50 text-red-950", tag: "bg-red-600" },
};

function AnnouncementBox({ announcement }: { announcement: Announcement }) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  const style = SEVERITY_STYLE[announcement.severity] ?? SEVERITY_STYLE.info;
  return (
    <section
      data-testid="status-announcement"
      data-severity={announcement.severity}
      aria-label={t(`statusPage.announcement.${announcement.severity}`)}
      className={`rounded-xl border px-4 py-4 sm:px-5 ${style.box}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold text-white ${style.tag}`}>{t(`statusPage.announcement.${announcement.severity}`)}</span>
        <span className="text-xs opacity-75" title={format.zoneOf(announcement.updatedAt)}>
          {t("statusPage.announcement.posted", { time: format(announcement.updatedAt) })}
        </span>
      </div>
      {/* Plain text, never HTML: React escapes it; line breaks are kept. */}
      <p className="mt-2 whitespace-pre-line break-words text-sm leading-6">{announcement.text}</p>
    </section>
  );
}

function OverallBanner({ overall }: { overall: PublicStatusPage["overall"] }) {
  const { t, i18n } = useTranslation();
  const list = (items: { name: string }[]) => {
    const { names, more } = firstNames(items);
    // "A, B and C" when that is all; "A, B, C and 3 more" (narrow: a plain list before the count) otherwise.
    const joined = new Intl.ListFormat(i18n.language, { type: "conjunction", style: more ? "narrow" : "long" }).format(names);
    return more ? t("statusPage.andMore", { names: joined, count: more }) : joined;
  };
  if (overall.status === "operational") {
    return (
      <div data-testid="status-overall" data-status="operational" role="status" className="flex items-center gap-3 rounded-xl bg-emerald-600 px-5 py-4 text-white shadow-sm">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-white/20">
          <CheckIcon className="size-4" />
        </span>
        <p className="text-lg font-semibold">{t("statusPage.operational")}</p>
      </div>
    );
  }
  const severe = overall.down.length > 0;
  return (
    <div
      data-testid="status-overall"
      data-status="degraded"
      role="status"
      className={`rounded-xl px-5 py-4 text-white shadow-sm ${severe ? "bg-red-600" : "bg-amber-600"}`}
    >
      <p className="text-lg font-semibold">{t("statusPage.degraded")}</p>
      {overall.down.length > 0 && (
        <p data-testid="status-down-list" className="mt-1 break-words text-sm">
          {t("statusPage.downList", { names: list(overall.down) })}
        </p>
      )}
      {overall.offline.length > 0 && (
        <p data-testid="status-offline-list" className="mt-1 break-words text-sm">
          {t("statusPage.offlineList", { names: list(overall.offline) })}
        </p>
      )}
    </div>
  );
}

/** Incident titles by id, for the day bars' tooltips. */
function useIncidentTitles(page: PublicStatusPage): Map<number, string> {
  return useMemo(() => new Map([...page.incidents.open, ...page.incidents.resolved].map((x) => [x.id, x.title])), [page.incidents]);
}

/** A page with named groups: each group a section of its monitors and agents, in page order. */
function GroupedSections({ page, tip }: { page: PublicStatusPage; tip: RefObject<DayTip | null> }) {
  const { t } = useTranslation();
  const incidentTitles = useIncidentTitles(page);
  const monitors = new Map(page.monitors.map((m) => [m.id, m]));
  const agents = new Map(page.agents.map((a) => [a.id, a]));
  return (
    <>
      {page.groups.map((g, i) => {
        const ms = g.items.flatMap((x) => (x.type === "monitor" && monitors.has(x.id) ? [monitors.get(x.id)!] : []));
        const as = g.items.flatMap((x) => (x.type === "agent" && agents.has(x.id) ? [agents.get(x.id)!] : []));
        return (
          <div key={`${g.name}-${i}`} data-testid="status-group" className="space-y-4">
            <h2 className="text-xl font-semibold text-slate-900" data-testid="status-group-name">
              {g.name || t("statusPage.otherGroup")}
            </h2>
            {ms.length > 0 && <MonitorSection monitors={ms} tip={tip} incidents={incidentTitles} heading={false} />}
            {as.length > 0 && <AgentSection agents={as} />}
          </div>
        );
      })}
    </>
  );
}
