import { describe, expect, test } from "bun:test";
import { BACKOFF_MAX_MS, LINGER_MS, SESSION_ENDED, backoffDelay, createLiveConnection, type SocketLike } from "./live";

class FakeSocket implements SocketLike {
  onopen: SocketLike["onopen"] = null;
  onmessage: SocketLike["onmessage"] = null;
  onclose: SocketLike["onclose"] = null;
  onerror: SocketLike["onerror"] = null;
  closed: number | null = null;
  /** What the page sent to the server. */
  sent: unknown[] = [];
  constructor(readonly url: string) {}
  close(code = 1000) {
    this.closed = code;
  }
  open() {
    this.onopen?.({});
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  /** A message from the server. */
  receive(type: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type, data }) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

/** A connection over fake sockets and a hand-driven clock. */
function harness(initialToken: string | null = "t1") {
  let tokenValue = initialToken;
  const sockets: FakeSocket[] = [];
  const timers = new Map<number, { fn: () => void; at: number }>();
  let now = 0;
  let nextId = 1;
  let sessionEnded = 0;
  let connectFailed = 0;
  const conn = createLiveConnection({
    url: () => (tokenValue ? `ws://x/api/live?token=${tokenValue}` : null),
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    onSessionEnded: () => sessionEnded++,
    onConnectFailed: () => connectFailed++,
    setTimer: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { fn, at: now + ms });
      return id;
    },
    clearTimer: (id) => timers.delete(id as number),
    random: () => 0.5,
  });
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at <= now && timers.has(id)) {
        timers.delete(id);
        timer.fn();
      }
    }
  };
  return {
    conn,
    sockets,
    advance,
    last: () => sockets[sockets.length - 1],
    setToken: (t: string | null) => {
      tokenValue = t;
      conn.sync();
    },
    counts: () => ({ sessionEnded, connectFailed }),
  };
}

describe("backoffDelay", () => {
  test("doubles from 1 s up to 30 s, with ±20 % jitter", () => {
    expect(backoffDelay(0, () => 0.5)).toBe(1000);
    expect(backoffDelay(1, () => 0.5)).toBe(2000);
    expect(backoffDelay(3, () => 0.5)).toBe(8000);
    expect(backoffDelay(20, () => 0.5)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(0, () => 0)).toBe(800);
    expect(backoffDelay(0, () => 1)).toBe(1200);
  });
});

describe("live connection", () => {
  test("opens one socket for many subscribers and routes messages by type", () => {
    const h = harness();
    expect(h.sockets).toHaveLength(0);
    const checks: unknown[] = [];
    const changes: unknown[] = [];
    const offA = h.conn.subscribe("monitor.check", (d) => checks.push(d));
    const offB = h.conn.subscribe("monitor.change", (d) => changes.push(d));
    expect(h.sockets).toHaveLength(1);
    expect(h.last().url).toBe("ws://x/api/live?token=t1");
    expect(h.conn.state.value).toBe("connecting");
    h.last().open();
    expect(h.conn.state.value).toBe("open");
    h.last().receive("monitor.check", { monitorId: 1 });
    h.last().receive("monitor.change", { monitorId: 2 });
    h.last().receive("agent.report", { id: 3 });
    h.last().onmessage?.({ data: "not json" });
    expect(checks).toEqual([{ monitorId: 1 }]);
    expect(changes).toEqual([{ monitorId: 2 }]);
    offA();
    offB();
    // The socket lingers a little, then closes.
    expect(h.last().closed).toBeNull();
    h.advance(LINGER_MS);
    expect(h.last().closed).toBe(1000);
    expect(h.conn.state.value).toBe("idle");
  });

  test("a handler that throws does not stop the others", () => {
    const h = harness();
    const seen: unknown[] = [];
    const original = console.error;
    console.error = () => {};
    try {
      h.conn.subscribe("hello", () => {
        throw new Error("boom");
      });
      h.conn.subscribe("hello", (d) => seen.push(d));
      h.last().open();
      h.last().receive("hello", { at: 1 });
    } finally {
      console.error = original;
    }
    expect(seen).toEqual([{ at: 1 }]);
  });

  test("resubscribing within the linger time keeps the same socket", () => {
    const h = harness();
    h.conn.subscribe("hello", () => {})();
    h.advance(LINGER_MS - 1);
    h.conn.subscribe("hello", () => {});
    h.advance(LINGER_MS * 2);
    expect(h.sockets).toHaveLength(1);
    expect(h.last().closed).toBeNull();
  });

  test("reconnects after a drop with growing delays, reset once open", () => {
    const h = harness();
    h.conn.subscribe("monitor.status", () => {});
    h.last().open();
    h.last().drop();
    expect(h.conn.state.value).toBe("retrying");
    expect(h.counts().connectFailed).toBe(0); // it had opened: not a refusal
    h.advance(999);
    expect(h.sockets).toHaveLength(1);
    h.advance(1);
    expect(h.sockets).toHaveLength(2);
    h.last().drop(); // failed before opening
    expect(h.counts().connectFailed).toBe(1);
    h.advance(1999);
    expect(h.sockets).toHaveLength(2);
    h.advance(1);
    expect(h.sockets).toHaveLength(3);
    h.last().open();
    h.last().drop();
    h.advance(1000); // back to the first delay
    expect(h.sockets).toHaveLength(4);
  });

  test("close code 4001 ends the session and does not reconnect", () => {
    const h = harness();
    h.conn.subscribe("monitor.status", () => {});
    h.last().open();
    h.last().drop(SESSION_ENDED);
    expect(h.counts().sessionEnded).toBe(1);
    h.advance(60_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.conn.state.value).toBe("idle");
  });

  test("follows the token: a new one reconnects, none closes", () => {
    const h = harness(null);
    h.conn.subscribe("monitor.status", () => {});
    expect(h.sockets).toHaveLength(0);
    h.setToken("t1");
    expect(h.sockets).toHaveLength(1);
    h.last().open();
    h.setToken("t2");
    expect(h.sockets[0].closed).toBe(1000);
    expect(h.last().url).toBe("ws://x/api/live?token=t2");
    h.setToken(null);
    expect(h.last().closed).toBe(1000);
    expect(h.conn.state.value).toBe("idle");
  });

  test("unsubscribing twice counts once", () => {
    const h = harness();
    const off = h.conn.subscribe("hello", () => {});
    h.conn.subscribe("hello", () => {});
    off();
    off();
    h.advance(LINGER_MS);
    expect(h.last().closed).toBeNull();
  });
});

describe("which checks the server sends", () => {
  const tick = () => new Promise((r) => queueMicrotask(() => r(null)));
  const watch = (monitors: number[] | null) => ({ type: "watch", data: { monitors } });

  test("a screen's monitors only, told after hello and when they move; a screen wanting every check widens it", async () => {
    const h = harness();
    const seen: number[] = [];
    const list = h.conn.subscribeChecks([1, 2], (d) => seen.push(d.monitorId));
    const detail = h.conn.subscribeChecks([7], () => {});
    h.last().open();
    await tick();
    expect(h.last().sent).toEqual([]); // not before the server said hello
    h.last().receive("hello", { at: 1 });
    await tick();
    expect(h.last().sent).toEqual([watch([1, 2, 7])]);
    // A check of another monitor the server still sent (another tab of the same scope moving) is not handed on.
    h.last().receive("monitor.check", { monitorId: 7 });
    h.last().receive("monitor.check", { monitorId: 2 });
    expect(seen).toEqual([2]);

    list.setMonitors([3]);
    list.setMonitors([3, 4]); // coalesced: one message
    await tick();
    expect(h.last().sent.slice(1)).toEqual([watch([3, 4, 7])]);
    list.setMonitors([4, 3]); // the same scope: nothing sent
    await tick();
    expect(h.last().sent).toHaveLength(2);

    const off = h.conn.subscribe("monitor.check", () => {}); // e.g. a page that wants all
    await tick();
    expect(h.last().sent.at(-1)).toEqual(watch(null));
    off();
    list.stop();
    await tick();
    expect(h.last().sent.at(-1)).toEqual(watch([7]));
    detail.stop();
    h.conn.subscribe("hello", () => {}); // still connected, no checks wanted: none sent
    await tick();
    expect(h.last().sent.at(-1)).toEqual(watch([]));
  });

  test("a new socket is told again after its hello; one nobody narrowed is left sending all", async () => {
    const h = harness();
    h.conn.subscribe("monitor.check", () => {});
    h.last().open();
    h.last().receive("hello", { at: 1 });
    await tick();
    expect(h.last().sent).toEqual([]);
    const scoped = h.conn.subscribeChecks([5], () => {});
    await tick();
    expect(h.last().sent).toEqual([]); // the page-wide handler still wants all
    h.last().drop();
    h.advance(60_000);
    h.last().open();
    h.last().receive("hello", { at: 2 });
    await tick();
    expect(h.last().sent).toEqual([]);
    scoped.stop();
    await tick();
    expect(h.last().sent).toEqual([]);
  });
});
