import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { getSettings, saveSettings, type NotificationSettings } from "../../api/notifications";
import { useLoad } from "../../components/useLoad";

const fetchSettings = async () => (await getSettings()).settings;

/**
 * The instance's notification settings. The settings and global tabs each edit a part of them; `save` sends the whole
 * object back (the API replaces it) with the part changed, and toasts the outcome (spec §8, §9).
 */
export function useSettings() {
  const { t } = useTranslation();
  const { state, reload, update } = useLoad<NotificationSettings>(fetchSettings, t("notifications.settings.fetchFailed"));
  const [saving, setSaving] = useState(false);

  /** Saves `change` over the loaded settings; true when the server took it. */
  const save = async (change: Partial<NotificationSettings>): Promise<boolean> => {
    if (state.phase !== "loaded") return false;
    setSaving(true);
    try {
      const reply = await saveSettings({ ...state.data, ...change });
      update(() => reply.settings);
      toast.success(t("notifications.settingsSaved"));
      return true;
    } catch (err) {
      toast.error(`${t("notifications.settingsSaveFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { state, reload, save, saving };
}
