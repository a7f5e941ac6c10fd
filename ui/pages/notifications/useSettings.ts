import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { getSettings, saveSettings, type NotificationSettings } from "../../api/notifications";

export type SettingsState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; settings: NotificationSettings };

/**
 * The instance's notification settings. The settings and global tabs each edit a part of them; `save` sends the whole
 * object back (the API replaces it) with the part changed, and toasts the outcome (spec §8, §9).
 */
export function useSettings() {
  const { t } = useTranslation();
  const [state, setState] = useState<SettingsState>({ phase: "loading" });
  const [saving, setSaving] = useState(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const reload = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      const reply = await getSettings();
      if (live.current) setState({ phase: "loaded", settings: reply.settings });
    } catch (err) {
      if (live.current) setState({ phase: "error", message: errorMessage(err, t("notifications.settings.fetchFailed")) });
    }
  }, [t]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Saves `change` over the loaded settings; true when the server took it. */
  const save = async (change: Partial<NotificationSettings>): Promise<boolean> => {
    if (state.phase !== "loaded") return false;
    setSaving(true);
    try {
      const reply = await saveSettings({ ...state.settings, ...change });
      if (live.current) setState({ phase: "loaded", settings: reply.settings });
      toast.success(t("notifications.settingsSaved"));
      return true;
    } catch (err) {
      toast.error(`${t("notifications.settingsSaveFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
      return false;
    } finally {
      if (live.current) setSaving(false);
    }
  };

  return { state, reload, save, saving };
}
