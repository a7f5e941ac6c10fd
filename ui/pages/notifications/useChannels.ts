import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { listChannels, type PublicChannel } from "../../api/notifications";
import { useLoad } from "../../components/useLoad";

const fetchChannels = async () => (await listChannels()).channels ?? [];

/**
 * The channel list, as every tab needs it (the channels tab lists it, the settings forms pick from it). `reload(true)`
 * refreshes quietly: a failure then keeps what is shown.
 */
export function useChannels() {
  const { t } = useTranslation();
  const { state, reload, update } = useLoad<PublicChannel[]>(fetchChannels, t("notifications.channels.fetchFailed"));

  /** Puts a saved channel in place (or adds it) without a round trip. */
  const put = useCallback(
    (channel: PublicChannel) =>
      update((channels) => (channels.some((c) => c.id === channel.id) ? channels.map((c) => (c.id === channel.id ? channel : c)) : [...channels, channel])),
    [update],
  );
  const remove = useCallback((id: number) => update((channels) => channels.filter((c) => c.id !== id)), [update]);

  return { state, reload, put, remove };
}
