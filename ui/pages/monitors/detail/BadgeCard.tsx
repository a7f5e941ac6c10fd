import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../../api/errors";
import type { PublicMonitor } from "../../../api/monitors";
import { getStatusConfig } from "../../../api/status";
import { Card } from "../../../components/Card";
import { CodeBlock } from "../../../components/CodeBlock";
import { badgeSnippets } from "./badgeSnippets";
import { SectionTitle } from "./layout";

type Place = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; onPage: boolean; statusPageUrl: string };

/**
 * The monitor's SVG badge (status and 30-day uptime) for a README or a web page: a preview and Markdown and HTML to
 * copy, with the instance's public address. The badge is public, so it exists only for monitors on the status page:
 * otherwise the section says so and links to where to add it.
 */
export function BadgeCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const [place, setPlace] = useState<Place>({ phase: "loading" });
  useEffect(() => {
    let live = true;
    getStatusConfig()
      .then(({ config }) => live && setPlace({ phase: "loaded", onPage: config.monitorIds.includes(monitor.id), statusPageUrl: config.publicUrl }))
      .catch((err) => live && setPlace({ phase: "error", message: errorMessage(err, t("monitors.detail.badge.failed")) }));
    return () => {
      live = false;
    };
  }, [monitor.id, t]);

  return (
    <Card data-testid="monitor-badge">
      <SectionTitle>{t("monitors.detail.badge.title")}</SectionTitle>
      <div className="space-y-4 px-5 py-5 sm:px-6">
        {place.phase === "loading" && <p className="text-sm text-slate-400">{t("common.loading")}</p>}
        {place.phase === "error" && (
          <p role="alert" data-testid="monitor-badge-error" className="text-sm text-red-600">
            {place.message}
          </p>
        )}
        {place.phase === "loaded" && <BadgeBody monitor={monitor} onPage={place.onPage} statusPageUrl={place.statusPageUrl} />}
      </div>
    </Card>
  );
}

function BadgeBody({ monitor, onPage, statusPageUrl }: { monitor: PublicMonitor; onPage: boolean; statusPageUrl: string }) {
  const { t } = useTranslation();
  const snippets = badgeSnippets(monitor.name, monitor.id, statusPageUrl);
  return (
    <>
      <p className="text-sm text-slate-600">{t("monitors.detail.badge.intro")}</p>
      {onPage ? (
        <img src={snippets.image} alt={t("monitors.detail.badge.previewAlt", { name: monitor.name })} data-testid="monitor-badge-preview" className="h-5" />
      ) : (
        <p data-testid="monitor-badge-not-public" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-inset ring-amber-200">
          {t("monitors.detail.badge.notPublic")}{" "}
          <Link href="/status/config" className="font-medium underline hover:text-amber-900" data-testid="monitor-badge-status-config">
            {t("monitors.detail.badge.addToPage")}
          </Link>
        </p>
      )}
      {(["markdown", "html"] as const).map((kind) => (
        <div key={kind} className="space-y-1.5">
          <p className="text-xs font-medium text-slate-600">{t(`monitors.detail.badge.${kind}`)}</p>
          <CodeBlock code={snippets[kind]} data-testid={`monitor-badge-${kind}`} copyTestId={`monitor-badge-${kind}-copy`} copiedMessage={t("monitors.detail.badge.copied")} />
        </div>
      ))}
    </>
  );
}
