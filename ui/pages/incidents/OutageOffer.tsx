// On a monitor's page while it is down: when the monitor is on a status page, offer to tell that page's visitors
// ("create incident from this outage", prefilled).
//
// data-testids: `incident-offer`, `incident-offer-create`.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { listStatusPages } from "../../api/status";
import { ButtonLink } from "../../components/Button";
import { canEdit } from "../../state/session";

export function OutageOffer({ monitorId, down }: { monitorId: number; down: boolean }) {
  const { t } = useTranslation();
  const [pages, setPages] = useState<string[] | null>(null);
  useEffect(() => {
    if (!down) return;
    let live = true;
    listStatusPages()
      .then((r) => live && setPages((r.pages ?? []).filter((p) => p.groups.some((g) => g.items.some((x) => x.type === "monitor" && x.id === monitorId))).map((p) => p.title || p.slug)))
      .catch(() => {}); // an extra: without it the page is the same
    return () => {
      live = false;
    };
  }, [down, monitorId]);
  if (!down || !pages?.length || !canEdit.value) return null;
  return (
    <div data-testid="incident-offer" className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3">
      <p className="text-sm text-red-800">{t("incidents.offer", { pages: pages.join(t("maintenance.listSeparator")) })}</p>
      <ButtonLink href={`/incidents/new?monitorId=${monitorId}`} variant="secondary" size="sm" data-testid="incident-offer-create">
        {t("incidents.offerCreate")}
      </ButtonLink>
    </div>
  );
}
