import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors";
import { listChannels, type PublicChannel } from "../../api/notifications";

export type ChannelsState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; channels: PublicChannel[] };

/**
 * The channel list, as every tab needs it (the channels tab lists it, the settings forms pick from it). `reload(true)`
 * refreshes quietly: a failure then keeps what is shown.
 */
export function useChannels() {
  const { t } = useTranslation();
  const [state, setState] = useState<ChannelsState>({ phase: "loading" });
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const reload = useCallback(
    async (quiet = false) => {
      if (!quiet) setState({ phase: "loading" });
      try {
        const reply = await listChannels();
        if (live.current) setState({ phase: "loaded", channels: reply.channels ?? [] });
      } catch (err) {
        const message = errorMessage(err, t("notifications.channels.fetchFailed"));
        if (live.current) setState((s) => (quiet && s.phase === "loaded" ? s : { phase: "error", message }));
      }
    },
    [t],
  );

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Puts a saved channel in place (or adds it) without a round trip. */
  const put = useCallback((channel: PublicChannel) => {
    setState((s) => {
      if (s.phase !== "loaded") return s;
      const known = s.channels.some((c) => c.id === channel.id);
      return { ...s, channels: known ? s.channels.map((c) => (c.id === channel.id ? channel : c)) : [...s.channels, channel] };
    });
  }, []);

  const remove = useCallback((id: number) => {
    setState((s) => (s.phase === "loaded" ? { ...s, channels: s.channels.filter((c) => c.id !== id) } : s));
  }, []);

  return { state, reload, put, remove };
}
