// Test support (not a test): a local fake of a provider's API that records what arrives, and a SendContext for it.
import type { NotificationEvent } from "../public";
import type { NotificationMessage, SendContext } from "./provider";

export interface Received {
  method: string;
  /** Path and query, e.g. "/robot/send?access_token=abc". */
  path: string;
  headers: Record<string, string>;
  /** The exact body text. */
  body: string;
  json: unknown;
}

export interface Fake {
  /** "http://127.0.0.1:<port>" */
  url: string;
  received: Received[];
  /** Replaces how the fake answers. */
  answer(respond: (request: Received) => Response | Promise<Response>): void;
  stop(): void;
}

/** A fake answering `respond` (default: 200 "{}"); stop it when done. */
export function startFake(respond: (request: Received) => Response | Promise<Response> = () => Response.json({})): Fake {
  const received: Received[] = [];
  let handler = respond;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const body = await request.text();
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const entry: Received = { method: request.method, path: url.pathname + url.search, headers: Object.fromEntries(request.headers), body, json };
      received.push(entry);
      return handler(entry);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    answer(respond) {
      handler = respond;
    },
    stop: () => void server.stop(true),
  };
}

/** An answer that never comes (for timeouts). */
export const never = () => new Promise<Response>(() => {});

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port as number;
  await server.stop(true);
  return port;
}

export const NOW = Date.UTC(2026, 10, 23, 3, 2, 3, 456);

export function context(fake: Pick<Fake, "url"> | null, overrides: Partial<SendContext> = {}): SendContext {
  const base = fake?.url ?? "http://127.0.0.1:9";
  return { fetch, timeoutMs: 2000, endpoints: { telegram: base, resend: base }, now: () => NOW, ...overrides };
}

export const EVENT: NotificationEvent = {
  kind: "down",
  target: { type: "monitor", id: 7, name: "Shop API" },
  time: NOW,
  facts: { url: "https://shop.example.com/health", httpStatus: 503, error: "HTTP 503", responseTime: 120 },
};

export const MESSAGE: NotificationMessage = {
  lang: "en-US",
  severity: "critical",
  title: "🔴 Monitor down: Shop <API> & co",
  lines: ["URL: https://shop.example.com/health?a=1&b=2", "Error: HTTP 503", "Time: 2026-11-23 11:02:03 (UTC+08:00)"],
  events: [EVENT],
};
