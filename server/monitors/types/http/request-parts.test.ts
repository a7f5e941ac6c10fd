import { describe, expect, test } from "bun:test";
import { ALLOW_PRIVATE, type TargetPolicy } from "../../../net/targets";
import { createCheckSignals, createHostGuard, requestHeaders } from "./request-parts";

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

describe("host guard", () => {
  const noPrivate: TargetPolicy = { ...ALLOW_PRIVATE, allowPrivate: false };

  test("an IP host's verdict is known without a lookup; a name is resolved on every check", async () => {
    let lookups = 0;
    let answer = ["93.184.216.34"];
    const guard = createHostGuard(noPrivate, async () => (lookups++, answer));
    expect(guard.known("http://10.0.0.1/x")).toContain("10.0.0.1");
    expect(guard.known("http://93.184.216.34/x")).toBeNull();
    expect(guard.known("http://169.254.169.254/latest")).toContain("169.254.169.254");
    expect(lookups).toBe(0);

    expect(guard.known("http://example.test/x")).toBeUndefined();
    expect(await guard.check("http://example.test/x")).toBeNull();
    // The name now points at a private address: the next check sees it.
    answer = ["192.168.1.5"];
    expect(await guard.check("http://example.test/x")).toContain("192.168.1.5");
    expect(lookups).toBe(2);
  });

  test("private addresses pass when the instance allows them", () => {
    expect(createHostGuard(ALLOW_PRIVATE, async () => []).known("http://127.0.0.1:8080/")).toBeNull();
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
