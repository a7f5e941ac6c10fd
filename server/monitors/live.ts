// Live push to browsers: GET /api/live upgrades to a WebSocket (session token in ?token=, as browsers cannot set
// headers on one) and receives bus events as JSON messages. One pub/sub topic; every signed-in user sees the same
// monitors, so everyone gets everything. Later features forward their events here too (agents…).
import { Elysia, t } from "elysia";
import type { Server } from "bun";
import type { SessionWatch } from "../auth/session-watch";
import type { sessions } from "../auth/session";
import type { EventBus, EventType } from "../events";
import { unauthorized } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import type { MonitorChangeEvent } from "./public";
import { forViewer } from "./viewer";

const TOPIC = "live";
const VIEWER_TOPIC = "live.viewer";
/** Close code for a session that stopped being valid: the UI clears the session as for a 401. */
export const SESSION_ENDED = 4001;

export interface LiveOptions {
  bus: EventBus;
  /** Ends a socket the moment its session ends (expiry, disabled or deleted user, password changed). */
  sessionWatch: SessionWatch;
  log?: Logger;
  /** Event types pushed to browsers. */
  forward?: EventType[];
}

interface Socket {
  close(code?: number, reason?: string): void;
  send(data: string): unknown;
}

export function createLive({ bus, sessionWatch, log = silentLogger, forward = ["monitor.status", "monitor.check", "monitor.change", "agent.status", "agent.report", "agent.change", "maintenance.change"] }: LiveOptions) {
  let server: Server<unknown> | null = null;
  /** Open sockets by id, each with the function that stops watching its session. */
  const open = new Map<string, { socket: Socket; unwatch: () => void }>();

  const publish = (type: string, data: unknown) => {
    if (!server || open.size === 0) return;
    const message = JSON.stringify({ type, data });
    server.publish(TOPIC, message);
    // Viewers get a monitor without what could be a credential (monitors/viewer.ts); everything else as it is.
    const change = type === "monitor.change" ? (data as MonitorChangeEvent) : null;
    server.publish(VIEWER_TOPIC, change?.monitor ? JSON.stringify({ type, data: { ...change, monitor: forViewer(change.monitor) } }) : message);
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
          // Refused before the upgrade: a plain 401 with the usual envelope.
          async beforeHandle({ query, verifySession }) {
            if (!(await verifySession(query.token ?? ""))) throw unauthorized("Your session has expired, please sign in again");
          },
          async open(ws) {
            const session = await ws.data.verifySession(ws.data.query.token ?? "");
            if (!session) return ws.close(SESSION_ENDED, "session ended");
            const id = ws.id;
            let ended = false;
            const unwatch = sessionWatch.watch(
              session.claims,
              () => {
                ended = true;
                forget(id);
                ws.close(SESSION_ENDED, "session ended");
              },
              session.user.role,
            );
            if (ended) return; // the session ended while the socket was opening
            open.set(id, { socket: ws, unwatch });
            listen();
            ws.subscribe(session.user.role === "viewer" ? VIEWER_TOPIC : TOPIC);
            ws.send(JSON.stringify({ type: "hello", data: { at: Date.now() } }));
          },
          // Browsers only listen; anything they send is ignored.
          message() {},
          close(ws) {
            open.get(ws.id)?.unwatch();
            forget(ws.id);
          },
        }),

    /** Sends a message to every open socket (also what bus events do). */
    publish,
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
      log.debug("live sockets closed");
    },
  };
}

export type Live = ReturnType<typeof createLive>;
