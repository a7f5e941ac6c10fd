import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../../api/errors";
import { clearTagColor, setTagColor, type PublicTag } from "../../../api/tags";
import { TagChip, tagColor } from "../../../components/Tag";
import { reloadTagColors, tagList } from "../../../state/tagColors";

// The tag colour editor (editors and admins, under the list's tag filter): each tag name in use with its colour, a
// colour picker and Save, and Default to go back to the colour derived from the name.

/** What the picker starts at for a tag without a colour: the derived palette's hue, roughly. */
const PICKER_START: Record<string, string> = { sky: "#0284c7", emerald: "#059669", amber: "#d97706", rose: "#e11d48", violet: "#7c3aed", teal: "#0d9488", orange: "#ea580c", fuchsia: "#c026d3", lime: "#65a30d", indigo: "#4f46e5" };
const startColor = (name: string) => PICKER_START[/bg-(\w+)-50/.exec(tagColor(name))?.[1] ?? "indigo"] ?? "#4f46e5";

export function TagColors({ onClose }: { onClose: () => void }) {
  useSignals();
  const { t } = useTranslation();
  useEffect(() => void reloadTagColors(), []);
  const tags = tagList.value;
  return (
    <section aria-labelledby="tag-colors-title" className="rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200" data-testid="tag-colors">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id="tag-colors-title" className="text-sm font-semibold text-slate-900">
          {t("monitors.tagColors.title")}
        </h2>
        <button type="button" onClick={onClose} className="text-xs font-medium text-indigo-600 hover:text-indigo-500" data-testid="tag-colors-close">
          {t("monitors.tagColors.close")}
        </button>
      </div>
      <p className="mb-2 text-xs text-slate-500">{t("monitors.tagColors.hint")}</p>
      {tags === null ? (
        <p className="text-xs text-slate-500">{t("monitors.tagColors.loading")}</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {tags.map((tag) => (
            <TagColorRow key={tag.name.toLowerCase()} tag={tag} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TagColorRow({ tag }: { tag: PublicTag }) {
  const { t } = useTranslation();
  const [color, setColor] = useState(tag.color ?? startColor(tag.name));
  const [busy, setBusy] = useState(false);
  useEffect(() => setColor(tag.color ?? startColor(tag.name)), [tag.color, tag.name]);
  const run = async (change: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await change();
      await reloadTagColors();
      toast.success(done);
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.tagColors.failed")));
    } finally {
      setBusy(false);
    }
  };
  const dirty = color.toLowerCase() !== (tag.color ?? "").toLowerCase();
  return (
    <li className="flex items-center gap-2" data-testid="tag-color-row" data-tag={tag.name}>
      <span className="min-w-0 flex-1">
        <TagChip tag={tag.name} />
        <span className="ml-1.5 text-xs text-slate-500 tabular-nums">{t("monitors.tagColors.monitors", { count: tag.monitors })}</span>
      </span>
      <input
        type="color"
        value={color}
        onChange={(e) => setColor(e.target.value)}
        aria-label={t("monitors.tagColors.pick", { tag: tag.name })}
        className="h-7 w-9 cursor-pointer rounded border-0 bg-transparent p-0"
        data-testid="tag-color-input"
      />
      <button
        type="button"
        disabled={busy || !dirty}
        onClick={() => run(() => setTagColor(tag.name, color), t("monitors.tagColors.saved", { tag: tag.name }))}
        className="rounded-md bg-indigo-600 px-2 py-1 text-xs font-semibold text-white hover:bg-indigo-500 disabled:opacity-40"
        data-testid="tag-color-save"
      >
        {t("monitors.tagColors.save")}
      </button>
      {tag.color && (
        <button
          type="button"
          disabled={busy}
          onClick={() => run(() => clearTagColor(tag.name), t("monitors.tagColors.cleared", { tag: tag.name }))}
          className="rounded-md px-2 py-1 text-xs font-medium text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-white disabled:opacity-40"
          data-testid="tag-color-clear"
        >
          {t("monitors.tagColors.clear")}
        </button>
      )}
    </li>
  );
}
