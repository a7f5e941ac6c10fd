// Admins and editors: the secret feed link of a password-protected or signed-in-only page, on its edit screen. Feed
// readers can neither sign in nor type a password, so the link carries a key; a new link ends the old one, and the
// link can be turned off. The server shows the key to admins and editors only; viewers do not see the card.
//
// data-testids: `feed-card`, `feed-none`, `feed-create`, `feed-atom`, `feed-rss` (with `feed-atom-copy`,
//   `feed-rss-copy`), `feed-renew`, `feed-off`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { createFeedKey, removeFeedKey, type StatusPageSettings } from "../../api/status";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { CopyButton } from "../../components/CodeBlock";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EditorOnly } from "../../components/guards";

export function FeedLinkCard({ page }: { page: StatusPageSettings }) {
  if (page.visibility === "public") return null;
  return (
    <EditorOnly>
      <FeedLinks page={page} />
    </EditorOnly>
  );
}

function FeedLinks({ page }: { page: StatusPageSettings }) {
  const { t } = useTranslation();
  const [links, setLinks] = useState(page.feedLinks);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const run = async (action: () => Promise<{ page: StatusPageSettings }>, done: string) => {
    setBusy(true);
    try {
      setLinks((await action()).page.feedLinks);
      toast.success(done);
    } catch (err) {
      toast.error(errorMessage(err, t("statusPages.feed.failed")));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const create = () => run(() => createFeedKey(page.id), t(links ? "statusPages.feed.renewed" : "statusPages.feed.created"));

  return (
    <Card data-testid="feed-card">
      <CardHeader title={t("statusPages.feed.title")} description={t("statusPages.feed.hint")} />
      <div className="space-y-3 px-5 py-4 sm:px-6">
        {links === null ? (
          <div className="flex flex-wrap items-center gap-3">
            <p className="flex-1 text-sm text-slate-500" data-testid="feed-none">
              {t("statusPages.feed.none")}
            </p>
            <Button size="sm" busy={busy} onClick={() => void create()} data-testid="feed-create">
              {t("statusPages.feed.create")}
            </Button>
          </div>
        ) : (
          <>
            {(["atom", "rss"] as const).map((kind) => (
              <div key={kind} className="flex items-center gap-3">
                <span className="w-12 shrink-0 text-xs font-medium text-slate-500">{t(`statusPages.feed.${kind}`)}</span>
                <code className="min-w-0 flex-1 break-all rounded-md bg-slate-50 px-2 py-1.5 text-xs text-slate-800 ring-1 ring-slate-200" data-testid={`feed-${kind}`}>
                  {links[kind]}
                </code>
                <CopyButton text={links[kind]} copiedMessage={t("statusPages.feed.copied")} data-testid={`feed-${kind}-copy`} />
              </div>
            ))}
            <div className="flex flex-wrap justify-end gap-2 pt-1">
              <Button size="sm" variant="secondary" disabled={busy} onClick={() => setConfirming(true)} data-testid="feed-renew">
                {t("statusPages.feed.renew")}
              </Button>
              <Button size="sm" variant="dangerGhost" busy={busy && !confirming} onClick={() => void run(() => removeFeedKey(page.id), t("statusPages.feed.turnedOff"))} data-testid="feed-off">
                {t("statusPages.feed.off")}
              </Button>
            </div>
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t("statusPages.feed.renewTitle")}
        message={t("statusPages.feed.renewMessage")}
        confirmLabel={t("statusPages.feed.renew")}
        busy={busy}
        onConfirm={() => void create()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
