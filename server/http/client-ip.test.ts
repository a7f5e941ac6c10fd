import { describe, expect, test } from "bun:test";
import { clientIp } from "./client-ip";

const request = (xff?: string) => new Request("http://localhost/", { headers: xff ? { "x-forwarded-for": xff } : {} });

describe("clientIp", () => {
  test("ignores X-Forwarded-For unless a proxy is trusted", () => {
    expect(clientIp(request("1.2.3.4"), null, 0)).toBe("local");
  });

  test("takes the entry the outermost trusted proxy added, counted from the right", () => {
    expect(clientIp(request("6.6.6.6, 1.2.3.4"), null, 1)).toBe("1.2.3.4");
    expect(clientIp(request("6.6.6.6, 1.2.3.4, 10.0.0.2"), null, 2)).toBe("1.2.3.4");
    expect(clientIp(request("1.2.3.4"), null, 2)).toBe("1.2.3.4"); // reached the inner proxy directly
    expect(clientIp(request(" , 1.2.3.4 ,"), null, 1)).toBe("1.2.3.4");
    expect(clientIp(request(), null, 1)).toBe("local");
  });
});
