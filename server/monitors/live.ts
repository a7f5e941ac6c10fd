// Live push to browsers: GET /api/live upgrades to a WebSocket (session token in ?token=, as browsers cannot set
// headers on one) and receives bus events as JSON messages. One pub/sub topic; every signed-in user sees the same
// monitors, so everyone gets everything. Later features forward their events here too (agents…).
import { Elysia, t } from "elysia";
import type { Server } from "bun";
import { sessionUser, type SessionClaims, type sessions } from "../auth/session";
import type { EventBus, EventType } from "../events";
import { unauthorized } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import type { UserStore } from "../users/store";

const TOPIC = "live";
/** Close code for a session that stopped being valid: the UI clears the session as for a 401. */
export const SESSION_ENDED = 4001;

export interface LiveOptions {
  bus: EventBus;
  users: UserStore;
  log?: Logger;
  /** Event types pushed to browsers. */
  forward?: EventType[];
  /** How often open sockets' sessions are re-checked (expiry, sign-out elsewhere, disabled account). */
  sweepMs?: number;
}

interface Socket {
  close(code?: number, reason?: string): void;
  send(data: string): unknown;
}

export function createLive({ bus, users, log = silentLogger, forward = ["monitor.status", "monitor.check", "monitor.change", "agent.status", "agent.report", "agent.change"], sweepMs = 60_000 }: LiveOptions) {
  let server: Server<unknown> | null = null;
  const open = new Map<string, { socket: Socket; claims: SessionClaims }>();
  let sweeper: ReturnType<typeof setInterval> | null = null;

  const publish = (type: string, data: unknown) => {
    if (!server || open.size === 0) return;
    server.publish(TOPIC, JSON.stringify({ type, data }));
  };
  const unsubscribe = forward.map((type) => bus.on(type, (data) => publish(type, data)));

  function sweep() {
    for (const [id, { socket, claims }] of open) {
      if (!sessionUser(users, claims)) {
        open.delete(id);
        socket.close(SESSION_ENDED, "session ended");
      }
    }
  }

  function track(id: string, socket: Socket, claims: SessionClaims) {
    open.set(id, { socket, claims });
    if (!sweeper) {
      sweeper = setInterval(sweep, sweepMs);
      sweeper.unref?.();
    }
  }

  function untrack(id: string) {
    open.delete(id);
    if (open.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }

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
            track(ws.id, ws, session.claims);
            ws.subscribe(TOPIC);
            ws.send(JSON.stringify({ type: "hello", data: { at: Date.now() } }));
          },
          // Browsers only listen; anything they send is ignored.
          message() {},
          close(ws) {
            untrack(ws.id);
          },
        }),

    /** Sends a message to every open socket (also what bus events do). */
    publish,
    get connections() {
      return open.size;
    },

    /** Closes every socket (going away) and stops listening to the bus: for shutdown. */
    close() {
      for (const u of unsubscribe) u();
      for (const { socket } of open.values()) socket.close(1001, "server shutting down");
      open.clear();
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      log.debug("live sockets closed");
    },

    sweep,
  };
}

export type Live = ReturnType<typeof createLive>;
