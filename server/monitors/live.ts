// Live push to browsers: GET /api/live upgrades to a WebSocket (session token in ?token=, as browsers cannot set
// headers on one) and receives bus events as JSON messages. Each message carries what the same caller's REST calls
// show: every event goes through the view its kinds have for each role (monitors/viewer.ts, agents/view.ts), and is
// published once per role topic that has sockets on it.
//
// Checks are the bulk of it (100 000 monitors at 1 minute: 1 700 a second), and a screen shows a few dozen monitors:
// a socket may say which monitors' checks it wants ({"type":"watch","data":{"monitors":[1,2,3]}}; null: all of them,
// as a new socket starts). Each monitor's checks go to its own topic, all checks to one more.
import { Elysia, t } from "elysia";
import type { Server } from "bun";
import type { SessionWatch } from "../auth/session-watch";
import { secondFactorRequired, type sessions } from "../auth/session";
import { agentView } from "../agents/view";
import type { EventBus, EventMap, EventType } from "../events";
import { unauthorized } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import type { Role } from "../users/public";
import { monitorChangeView, monitorStatusView } from "./viewer";
import { problemChangeView } from "../problems/view";

/** Close code for a session that stopped being valid: the UI clears the session as for a 401. */
export const SESSION_ENDED = 4001;
/**
 * Close code for a session the instance now holds back until its user sets up two-factor sign-in: not signed out (it
 * may still set it up); reconnecting is refused with 403 until then.
 */
export const TWO_FACTOR_REQUIRED = 4003;

const ROLES: readonly Role[] = ["admin", "editor", "viewer"];
const topicOf = (role: Role) => `live.${role}`;
/** A role's sockets that want every check (as each starts), and those that watch one monitor's. */
const allChecks = (role: Role) => `live.${role}.checks`;
const checksOf = (role: Role, monitorId: number) => `live.${role}.checks.${monitorId}`;
/** The most monitors one socket may watch (a screen's rows and their margin are a few hundred). */
export const WATCH_MAX = 2000;

/** `{"type":"watch","data":{"monitors":[…] | null}}` → the ids (null: all), or undefined for anything else. */
export function parseWatch(message: unknown): number[] | null | undefined {
  let value = message;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!value || typeof value !== "object" || (value as { type?: unknown }).type !== "watch") return undefined;
  const monitors = ((value as { data?: { monitors?: unknown } }).data ?? {}).monitors;
  if (monitors === null) return null;
  if (!Array.isArray(monitors) || monitors.length > WATCH_MAX) return undefined;
  return monitors.every((id) => Number.isSafeInteger(id) && id > 0) ? [...new Set(monitors as number[])] : undefined;
}
/** Events that carry ids, states and check results only: every role's REST calls show them as they are. */
const asIs = <T>(_role: Role, data: T) => data;

/** How each role sees each event pushed to browsers; an event not listed here is never pushed. */
const VIEWS = {
  "monitor.status": monitorStatusView,
  "monitor.check": asIs,
  "monitor.change": monitorChangeView,
  "agent.status": agentView,
  "agent.report": agentView,
  "agent.change": asIs,
  "maintenance.change": asIs,
  "problem.change": problemChangeView,
} satisfies { [K in EventType]?: (role: Role, data: EventMap[K]) => unknown };
export type LiveEventType = keyof typeof VIEWS;

export interface LiveOptions {
  bus: EventBus;
  /** Ends a socket the moment its session ends (expiry, disabled or deleted user, password changed). */
  sessionWatch: SessionWatch;
  log?: Logger;
  /** Event types pushed to browsers (default: all that have views). */
  forward?: LiveEventType[];
}

interface Socket {
  close(code?: number, reason?: string): void;
  send(data: string): unknown;
  subscribe(topic: string): unknown;
  unsubscribe(topic: string): unknown;
}

export function createLive({ bus, sessionWatch, log = silentLogger, forward = Object.keys(VIEWS) as LiveEventType[] }: LiveOptions) {
  let server: Server<unknown> | null = null;
  /** Open sockets by id, each with the function that stops watching its session. */
  const open = new Map<string, { socket: Socket; unwatch: () => void; role: Role }>();
  /**
   * Sockets of users without a second factor when they opened: closed once the instance requires one (checked as
   * messages go out, so a held-back session is told nothing more); one who has set it up since reconnects at once.
   */
  const unenrolled = new Map<string, { socket: Socket; role: Role; pending: () => boolean }>();
  /** The monitors each socket watches the checks of (absent: all). */
  const watching = new Map<string, Set<number>>();

  function watch(id: string, socket: Socket, role: Role, monitors: number[] | null) {
    const before = watching.get(id);
    if (monitors === null) {
      if (!before) return;
      for (const monitorId of before) socket.unsubscribe(checksOf(role, monitorId));
      watching.delete(id);
      socket.subscribe(allChecks(role));
      return;
    }
    const next = new Set(monitors);
    if (!before) socket.unsubscribe(allChecks(role));
    for (const monitorId of before ?? []) if (!next.has(monitorId)) socket.unsubscribe(checksOf(role, monitorId));
    for (const monitorId of next) if (!before?.has(monitorId)) socket.subscribe(checksOf(role, monitorId));
    watching.set(id, next);
  }

  /** Unsubscribes a socket from everything it hears. */
  function silence(id: string, socket: Socket, role: Role) {
    socket.unsubscribe(topicOf(role));
    socket.unsubscribe(allChecks(role));
    for (const monitorId of watching.get(id) ?? []) socket.unsubscribe(checksOf(role, monitorId));
  }

  function closePending() {
    for (const [id, { socket, role, pending }] of unenrolled) {
      if (!pending()) continue;
      silence(id, socket, role); // told nothing more, whenever the close completes
      open.get(id)?.unwatch();
      forget(id);
      socket.close(TWO_FACTOR_REQUIRED, "two-factor sign-in required");
    }
  }

  const publish = (type: LiveEventType, data: unknown) => {
    if (!server || open.size === 0) return;
    if (unenrolled.size > 0) closePending();
    const view = VIEWS[type] as (role: Role, data: unknown) => unknown;
    const monitorId = type === "monitor.check" ? (data as EventMap["monitor.check"]).monitorId : 0;
    // A role that sees the event as it is shares one serialisation of it (admins and editors always do).
    let whole: string | undefined;
    for (const role of ROLES) {
      // A check goes to the role's sockets that want every check and to those watching its monitor; the rest to all.
      const topics = monitorId ? [allChecks(role), checksOf(role, monitorId)] : [topicOf(role)];
      const heard = topics.filter((topic) => server!.subscriberCount(topic) > 0);
      if (heard.length === 0) continue;
      const seen = view(role, data);
      const json = seen === data ? (whole ??= JSON.stringify({ type, data })) : JSON.stringify({ type, data: seen });
      for (const topic of heard) server.publish(topic, json);
    }
  };
  // The bus is heard only while a browser is connected: with nobody watching, a check emits no event at all (its
  // announcer asks bus.has first), which is most of the time on most servers.
  let unsubscribe: (() => void)[] = [];
  const listen = () => {
    if (unsubscribe.length === 0) unsubscribe = forward.map((type) => bus.on(type, (data) => publish(type, data)));
  };
  const stopListening = () => {
    for (const u of unsubscribe) u();
    unsubscribe = [];
  };
  const forget = (id: string) => {
    open.delete(id);
    unenrolled.delete(id);
    watching.delete(id);
    if (open.size === 0) stopListening();
  };

  return {
    routes: (session: ReturnType<typeof sessions>) =>
      new Elysia({ name: "live" })
        .use(session)
        .onStart(({ server: listening }) => {
          server = listening as Server<unknown> | null;
        })
        .ws("/api/live", {
          query: t.Object({ token: t.Optional(t.String({ maxLength: 4096 })) }),
          // Refused before the upgrade with the usual envelope: 401 without a valid session, 403 for one held back by
          // the two-factor policy (which may set up its second factor and sign out, nothing else).
          async beforeHandle({ query, verifySession, twoFactorPending }) {
            const session = await verifySession(query.token ?? "");
            if (!session) throw unauthorized("Your session has expired, please sign in again");
            if (twoFactorPending(session.user)) throw secondFactorRequired();
          },
          async open(ws) {
            const session = await ws.data.verifySession(ws.data.query.token ?? "");
            if (!session) return ws.close(SESSION_ENDED, "session ended");
            const { user } = session;
            if (ws.data.twoFactorPending(user)) return ws.close(TWO_FACTOR_REQUIRED, "two-factor sign-in required");
            const id = ws.id;
            let ended = false;
            const unwatch = sessionWatch.watch(
              session.claims,
              () => {
                ended = true;
                forget(id);
                ws.close(SESSION_ENDED, "session ended");
              },
              user.role,
            );
            if (ended) return; // the session ended while the socket was opening
            const role = user.role;
            open.set(id, { socket: ws, unwatch, role });
            if (user.twoFactorAt === null) unenrolled.set(id, { socket: ws, role, pending: () => ws.data.twoFactorPending(user) });
            listen();
            ws.subscribe(topicOf(role));
            ws.subscribe(allChecks(role));
            ws.send(JSON.stringify({ type: "hello", data: { at: Date.now() } }));
          },
          // A browser says which monitors' checks it wants; anything else it sends is ignored.
          message(ws, message) {
            const monitors = parseWatch(message);
            const socket = open.get(ws.id);
            if (monitors !== undefined && socket) watch(ws.id, ws, socket.role, monitors);
          },
          close(ws) {
            open.get(ws.id)?.unwatch();
            forget(ws.id);
          },
        }),

    get connections() {
      return open.size;
    },

    /** Closes every socket (going away) and stops listening to the bus: for shutdown. */
    close() {
      stopListening();
      for (const { socket, unwatch } of open.values()) {
        unwatch();
        socket.close(1001, "server shutting down");
      }
      open.clear();
      unenrolled.clear();
      log.debug("live sockets closed");
    },
  };
}

export type Live = ReturnType<typeof createLive>;
