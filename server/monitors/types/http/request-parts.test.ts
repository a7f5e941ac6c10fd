import { describe, expect, test } from "bun:test";
import { createCheckSignals, requestHeaders } from "./request-parts";

describe("request headers", () => {
  test("the user agent first, then the monitor's headers in order; built once per headers list", () => {
    const list = [{ name: "Accept", value: "text/html" }, { name: "X-Two", value: "a" }, { name: "x-two", value: "b" }];
    const built = requestHeaders(list, "Vigil/1");
    expect(built).toEqual([["user-agent", "Vigil/1"], ["Accept", "text/html"], ["X-Two", "a"], ["x-two", "b"]]);
    expect(requestHeaders(list, "Vigil/1")).toBe(built);
    expect([...new Headers(built).entries()]).toContainEqual(["x-two", "a, b"]);
  });

  test("a monitor's own User-Agent replaces Vigil's", () => {
    expect(requestHeaders([{ name: "User-Agent", value: "mine" }], "Vigil/1")).toEqual([["User-Agent", "mine"]]);
  });
});

describe("check signals", () => {
  test("checks starting within 100 ms with the same timeout share one signal; others get their own", () => {
    let t = 1000;
    const signals = createCheckSignals(() => t);
    const outer = new AbortController();
    const a = signals.of(10_000, outer.signal);
    t += 99;
    expect(signals.of(10_000, outer.signal)).toBe(a);
    expect(signals.of(5_000, outer.signal)).not.toBe(a);
    expect(signals.of(10_000)).not.toBe(a);
    t += 1;
    expect(signals.of(10_000, outer.signal)).not.toBe(a);
  });

  test("the outer signal aborts a shared one; an aborted signal is not handed out again", () => {
    const signals = createCheckSignals(() => 0);
    const outer = new AbortController();
    const a = signals.of(10_000, outer.signal);
    outer.abort();
    expect(a.aborted).toBe(true);
    expect(signals.of(10_000, new AbortController().signal).aborted).toBe(false);
  });

  test("a shared timeout never fires before the check's own timeout", async () => {
    const signals = createCheckSignals();
    const started = performance.now();
    const signal = signals.of(50);
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
    expect(performance.now() - started).toBeGreaterThanOrEqual(49);
    expect((signal.reason as Error).name).toBe("TimeoutError");
  });
});
