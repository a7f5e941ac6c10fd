import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../api/errors";

/** What a screen shows while it fetches: a spinner, an error with Retry, or the data. */
export type LoadState<T> = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; data: T };

/**
 * Fetches once on mount (and again when `fetch` changes), and on `reload()`. `reload(true)` refreshes quietly: no
 * spinner, and a failure keeps what is shown. `update` edits the loaded data in place (a saved or deleted row) without
 * a round trip. Answers arriving after unmount are dropped.
 */
export function useLoad<T>(fetch: () => Promise<T>, failMessage: string) {
  const [state, setState] = useState<LoadState<T>>({ phase: "loading" });
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
        const data = await fetch();
        if (live.current) setState({ phase: "loaded", data });
      } catch (err) {
        const message = errorMessage(err, failMessage);
        if (live.current) setState((s) => (quiet && s.phase === "loaded" ? s : { phase: "error", message }));
      }
    },
    [fetch, failMessage],
  );

  useEffect(() => {
    void reload();
  }, [reload]);

  const update = useCallback((change: (data: T) => T) => {
    setState((s) => (s.phase === "loaded" ? { phase: "loaded", data: change(s.data) } : s));
  }, []);

  return { state, reload, update };
}
