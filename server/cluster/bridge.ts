// Events between the nodes of a cluster, over PostgreSQL's LISTEN/NOTIFY: what one node learns (a check result, a
// status change, an edited monitor, an agent report, a changed user) reaches every other node's memory and the
// browsers connected to it. Messages are batched (one NOTIFY per short tick, split under PostgreSQL's 8000-byte
// payload limit) and carry their sender, so a node ignores its own, and their schema: instances in other schemas of
// the same database (`?schema=`) share the channel but are other clusters, whose monitor 1 is not ours. When the listening connection is re-established
// after a drop, `onResync` runs: whatever was said meanwhile is lost, so the node re-reads its state. On SQLite
// there is one node and nothing to bridge.
import { randomUUID } from "node:crypto";
import type { Db } from "../db/database";
import { silentLogger, type Logger } from "../log";

export const CHANNEL = "vigil_events";
/** Below PostgreSQL's 8000-byte NOTIFY payload limit, with room for the envelope. */
const MAX_PAYLOAD = 7000;

export interface BridgeMessage {
  kind: string;
  data: unknown;
}

interface Envelope {
  /** Sender instance. */
  from: string;
  /** The sender's schema (absent from older builds: heard, as before). */
  schema?: string;
  messages: BridgeMessage[];
}

export interface BridgeOptions {
  db: Db;
  log?: Logger;
  /** How long messages gather before they are sent (ms). */
  batchMs?: number;
  /** Runs after the listening connection came back (not on the first subscription). */
  onResync?: () => void;
}

export type Bridge = ReturnType<typeof createBridge>;

export function createBridge(options: BridgeOptions) {
  const { db } = options;
  const log = options.log ?? silentLogger;
  const batchMs = options.batchMs ?? 50;
  const instance = randomUUID();
  /** This node's schema, read at start. */
  let schema = "";
  const handlers = new Map<string, Set<(data: unknown) => void>>();
  let queue: BridgeMessage[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let subscription: { unlisten(): Promise<void> } | undefined;
  let sending: Promise<void> = Promise.resolve();
  const stats = { sent: 0, received: 0, notifies: 0, failures: 0, resyncs: 0 };
  const enabled = db.engine === "postgres" && db.pg !== null;

  function deliver(raw: string) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      return log.warn("ignored a malformed cluster message", { bytes: raw.length });
    }
    if (envelope.from === instance || (envelope.schema !== undefined && envelope.schema !== schema)) return;
    for (const m of envelope.messages) {
      stats.received++;
      for (const h of handlers.get(m.kind) ?? []) {
        try {
          h(m.data);
        } catch (e) {
          log.error("cluster message handler failed", { kind: m.kind, error: String((e as Error)?.stack ?? e) });
        }
      }
    }
  }

  /** Splits messages into payloads under the limit (a single oversized message is dropped and logged). */
  function payloads(messages: BridgeMessage[]): string[] {
    const out: string[] = [];
    let batch: string[] = [];
    let size = 0;
    const head = `{"from":${JSON.stringify(instance)},"schema":${JSON.stringify(schema)},"messages":[`;
    const flush = () => {
      if (batch.length) out.push(head + batch.join(",") + "]}");
      batch = [];
      size = 0;
    };
    for (const m of messages) {
      const text = JSON.stringify(m);
      if (head.length + text.length + 2 > MAX_PAYLOAD) {
        log.error("a cluster message is too large to send", { kind: m.kind, bytes: text.length });
        continue;
      }
      if (head.length + size + text.length + 2 > MAX_PAYLOAD) flush();
      batch.push(text);
      size += text.length + 1;
    }
    flush();
    return out;
  }

  function send() {
    timer = undefined;
    const messages = queue;
    queue = [];
    if (!messages.length) return sending;
    sending = sending.then(async () => {
      for (const payload of payloads(messages)) {
        try {
          await db.pg!.notify(CHANNEL, payload);
          stats.notifies++;
        } catch (e) {
          stats.failures++;
          log.error("sending a cluster message failed", { error: String((e as Error)?.message ?? e) });
        }
      }
      stats.sent += messages.length;
    });
    return sending;
  }

  return {
    instance,
    enabled,
    stats: () => ({ ...stats }),

    /** Tells the other nodes (batched); nothing happens on SQLite. */
    publish(kind: string, data: unknown) {
      if (!enabled || !subscription) return;
      queue.push({ kind, data });
      timer ??= setTimeout(send, batchMs);
    },

    /** Handles a kind of message from the other nodes. */
    on(kind: string, handler: (data: unknown) => void): () => void {
      let set = handlers.get(kind);
      if (!set) handlers.set(kind, (set = new Set()));
      set.add(handler);
      return () => void set.delete(handler);
    },

    async start() {
      if (!enabled || subscription) return;
      const [row] = await db.pg!`SELECT current_schema() AS schema`;
      schema = String(row.schema);
      let first = true;
      subscription = await db.pg!.listen(CHANNEL, deliver, () => {
        if (first) return void (first = false);
        stats.resyncs++;
        log.warn("cluster events reconnected: re-reading state");
        options.onResync?.();
      });
    },

    /** Sends what is queued and stops listening. */
    async stop() {
      clearTimeout(timer);
      await send();
      await subscription?.unlisten().catch(() => {});
      subscription = undefined;
    },

    /** Sends what is queued now (tests). */
    flush: () => (timer ? (clearTimeout(timer), send()) : sending),
  };
}
