// Live updates: one WebSocket to /api/live for the whole app, shared by every page that subscribes to a message
// type. It opens while something is subscribed (and a session exists), reconnects with back-off, follows token
// changes, and treats close code 4001 (session ended) like a 401.
import { effect, signal, type Signal } from "@preact/signals-react";
import { useEffect, useRef } from "react";
import type { AgentLiveMessages } from "../../server/agents/public";
import type { MaintenanceChangeEvent } from "../../server/maintenance/public";
import type { LiveMessage } from "../../server/monitors/public";
import type { ProblemChange } from "../../server/problems/public";
import { onUnauthorized, request } from "../api/client";
import { token } from "./session";

type MonitorMessages = { [M in LiveMessage as M["type"]]: M["data"] };

/**
 * Every message type on /api/live and its data. Other features add theirs here (e.g. `"agent.status": …`); a type
 * not listed can still be subscribed to through `subscribeAny`.
 */
export interface LiveMessages extends MonitorMessages, AgentLiveMessages {
  /** Monitors and agents entered or left maintenance. */
  "maintenance.change": MaintenanceChangeEvent;
  /** An open problem was raised, acknowledged or resolved. */
  "problem.change": ProblemChange;
}

export type LiveType = keyof LiveMessages;

/** idle: nothing subscribed or no session; connecting; open; retrying: waiting to reconnect after a drop. */
export type LiveState = "idle" | "connecting" | "open" | "retrying";

/** The server closes a socket whose session stopped being valid with this code. */
export const SESSION_ENDED = 4001;

/** Reconnect delays: 1 s, 2 s, 4 s … up to 30 s, each ± 20 %. */
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** An unused socket stays open this long, so moving from one live page to the next does not reconnect. */
export const LINGER_MS = 5000;

export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The part of a WebSocket this module uses (a fake in tests). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveOptions {
  /** The address to connect to, or null without a session. */
  url: () => string | null;
  createSocket: (url: string) => SocketLike;
  /** Code 4001: the session ended. */
  onSessionEnded: () => void;
  /** A connection failed before opening (maybe refused with a 401): lets the app find out whether the session is gone. */
  onConnectFailed?: () => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
}

type Handler = (data: unknown) => void;

/** Checks are sent for these monitors only (null: all). */
type CheckScope = ReadonlySet<number> | null;

export function createLiveConnection(options: LiveOptions) {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const handlers = new Map<string, Set<Handler>>();
  /** The monitors a "monitor.check" handler wants (one subscribed without a scope wants every check). */
  const scopes = new Map<Handler, ReadonlySet<number>>();
  /** The scope the server was last told on this socket ("" before it was told anything: it sends every check). */
  let toldScope = "";
  /** The server said hello on this socket: it reads what the page sends from then on. */
  let greeted = false;
  const state: Signal<LiveState> = signal("idle");
  let subscribers = 0;
  let socket: SocketLike | null = null;
  let socketUrl: string | null = null;
  let opened = false;
  let attempt = 0;
  let retryTimer: unknown = null;
  let lingerTimer: unknown = null;

  const cancel = (timer: unknown) => {
    if (timer !== null) clearTimer(timer);
    return null;
  };

  function teardown() {
    retryTimer = cancel(retryTimer);
    lingerTimer = cancel(lingerTimer);
    const old = socket;
    socket = null;
    socketUrl = null;
    if (old) {
      old.onopen = old.onmessage = old.onclose = old.onerror = null;
      try {
        old.close(1000, "not needed");
      } catch {
        // already closed
      }
    }
    state.value = "idle";
  }

  function dispatch(raw: unknown) {
    let message: { type?: unknown; data?: unknown };
    try {
      message = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (!message || typeof message.type !== "string") return;
    // The server listens for a watch once it has said hello (a socket starts with every check).
    if (message.type === "hello") {
      greeted = true;
      toldScope = "";
      tellScope();
    }
    const checkOf = message.type === "monitor.check" ? (message.data as { monitorId?: number } | undefined)?.monitorId : undefined;
    for (const handler of [...(handlers.get(message.type) ?? [])]) {
      if (checkOf !== undefined && scopes.get(handler)?.has(checkOf) === false) continue;
      try {
        handler(message.data);
      } catch (error) {
        console.error("Vigil: live handler failed", error);
      }
    }
  }

  function connect(url: string) {
    retryTimer = cancel(retryTimer);
    opened = false;
    state.value = "connecting";
    let ws: SocketLike;
    try {
      ws = options.createSocket(url);
    } catch {
      scheduleRetry();
      return;
    }
    socket = ws;
    socketUrl = url;
    greeted = false;
    ws.onopen = () => {
      opened = true;
      attempt = 0;
      state.value = "open";
    };
    ws.onmessage = (event) => dispatch(event.data);
    ws.onerror = () => {}; // a close event always follows
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      socketUrl = null;
      if (event.code === SESSION_ENDED) {
        state.value = "idle";
        options.onSessionEnded();
        return;
      }
      if (!opened) options.onConnectFailed?.();
      scheduleRetry();
    };
  }

  /** The checks wanted now: every one if any handler wants all, else the union of the scopes (none: no handler). */
  function wantedScope(): CheckScope {
    const union = new Set<number>();
    for (const handler of handlers.get("monitor.check") ?? []) {
      const scope = scopes.get(handler);
      if (!scope) return null;
      for (const id of scope) union.add(id);
    }
    return union;
  }

  let scopePending = false;
  /** Tells the open socket which checks to send, once per change (coalesced: a list updates its rows' scope at once). */
  function tellScope() {
    if (scopePending) return;
    scopePending = true;
    queueMicrotask(() => {
      scopePending = false;
      if (!socket || !greeted) return;
      const scope = wantedScope();
      const key = scope === null ? "all" : [...scope].sort((a, b) => a - b).join(",");
      if (key === toldScope || (toldScope === "" && key === "all")) return;
      try {
        socket.send(JSON.stringify({ type: "watch", data: { monitors: scope === null ? null : [...scope] } }));
        toldScope = key;
      } catch {
        // closing: the next socket is told after its hello
      }
    });
  }

  function scheduleRetry() {
    if (!wanted()) return teardown();
    state.value = "retrying";
    const delay = backoffDelay(attempt++, options.random);
    retryTimer = setTimer(() => {
      retryTimer = null;
      sync();
    }, delay);
  }

  const wanted = () => subscribers > 0 && options.url() !== null;

  /** Opens, keeps, moves (new token) or closes the socket to match what is wanted now. */
  function sync() {
    const url = options.url();
    if (subscribers > 0) lingerTimer = cancel(lingerTimer);
    if (url === null) return teardown();
    if (subscribers === 0) {
      if (socket && lingerTimer === null) {
        lingerTimer = setTimer(() => {
          lingerTimer = null;
          if (subscribers === 0) teardown();
        }, LINGER_MS);
      } else if (!socket) teardown();
      return;
    }
    if (socket && socketUrl !== url) teardown(); // the token changed: reconnect with the new one
    if (!socket && retryTimer === null) connect(url);
  }

  function add(type: string, handler: Handler): () => void {
    let set = handlers.get(type);
    if (!set) handlers.set(type, (set = new Set()));
    set.add(handler);
    subscribers++;
    sync();
    if (type === "monitor.check") tellScope();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      set.delete(handler);
      scopes.delete(handler);
      if (type === "monitor.check") tellScope();
      subscribers--;
      sync();
    };
  }

  return {
    /** Calls `handler` with the data of every message of `type`; returns the unsubscribe function. */
    subscribe<K extends LiveType>(type: K, handler: (data: LiveMessages[K]) => void): () => void {
      return add(type, handler as Handler);
    },
    /**
     * Like subscribe("monitor.check"), for these monitors only: the server is told, so a screen showing a few rows of
     * 100 000 monitors is not sent every check. `setMonitors` moves the scope (the rows in view changed).
     */
    subscribeChecks(monitors: Iterable<number>, handler: (data: LiveMessages["monitor.check"]) => void) {
      const own: Handler = (data) => handler(data as LiveMessages["monitor.check"]);
      scopes.set(own, new Set(monitors));
      const stop = add("monitor.check", own);
      return {
        stop,
        setMonitors(next: Iterable<number>) {
          if (!scopes.has(own)) return;
          scopes.set(own, new Set(next));
          tellScope();
        },
      };
    },
    /** For message types not (yet) listed in LiveMessages. */
    subscribeAny(type: string, handler: (data: unknown) => void): () => void {
      return add(type, handler);
    },
    /** Re-reads the session (call when the token changes). */
    sync,
    state,
    /** Closes everything (tests). */
    close() {
      handlers.clear();
      subscribers = 0;
      teardown();
    },
  };
}

export type LiveConnection = ReturnType<typeof createLiveConnection>;

function liveUrl(): string | null {
  if (!token.value || typeof window === "undefined") return null;
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}/api/live?token=${encodeURIComponent(token.value)}`;
}

/** The app's one connection. */
export const live = createLiveConnection({
  url: liveUrl,
  createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  onSessionEnded: onUnauthorized,
  // A refused upgrade is invisible to a WebSocket (just a close); a plain request tells: a 401 clears the session.
  onConnectFailed: () => void request("GET", "/api/auth/me").catch(() => {}),
});

/** Connection state for a "live" indicator. */
export const liveState = live.state;

// A new token (login, password change) or none (logout, 401) moves or closes the socket.
if (typeof window !== "undefined") {
  effect(() => {
    void token.value;
    live.sync();
  });
}

/**
 * Subscribes a component to one message type for as long as it is mounted (and `enabled`). The latest `handler` is
 * called, so it may be a new function on every render.
 */
export function useLive<K extends LiveType>(type: K, handler: (data: LiveMessages[K]) => void, enabled = true) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    return live.subscribe(type, (data) => latest.current(data));
  }, [type, enabled]);
}

/**
 * The checks of these monitors only, for as long as the component is mounted (and `enabled`): the server sends no
 * others to this browser unless another screen wants every check. A new list of ids moves the scope.
 */
export function useLiveChecks(monitors: readonly number[], handler: (data: LiveMessages["monitor.check"]) => void, enabled = true) {
  const latest = useRef(handler);
  const ids = useRef(monitors);
  const subscription = useRef<ReturnType<LiveConnection["subscribeChecks"]> | null>(null);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    const made = live.subscribeChecks(ids.current, (data) => latest.current(data));
    subscription.current = made;
    return () => {
      made.stop();
      subscription.current = null;
    };
  }, [enabled]);
  useEffect(() => {
    ids.current = monitors;
    subscription.current?.setMonitors(monitors);
  }, [monitors]);
}
