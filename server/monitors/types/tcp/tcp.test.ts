import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { ALLOW_PRIVATE } from "../../../net/targets";
import { HttpError } from "../../../http/errors";
import { defaultFields } from "../../schemas";
import { closedPort } from "../../test-target";
import { checkTcp, tcpType } from "./tcp";

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A real listener on 127.0.0.1 that counts the connections it accepted. */
async function listener(): Promise<{ port: number; accepted: () => number }> {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, accepted: () => accepted };
}

const resolveLocal = async (host: string) => (host === "db.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));

describe("tcp check against local listeners", () => {
  test("an open port is up, with the connect time; the listener saw the connection", async () => {
    const l = await listener();
    const r = await checkTcp({ host: "127.0.0.1", port: l.port, timeout: 5 }, ALLOW_PRIVATE, resolveLocal);
    expect(r).toMatchObject({ up: true, error: null, httpStatus: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(1000);
    await Bun.sleep(20);
    expect(l.accepted()).toBe(1);
  });

  test("a host name is resolved, then connected to", async () => {
    const l = await listener();
    expect(await checkTcp({ host: "db.test", port: l.port, timeout: 5 }, ALLOW_PRIVATE, resolveLocal)).toMatchObject({ up: true });
  });

  test("a closed port is down: connection refused", async () => {
    const r = await checkTcp({ host: "127.0.0.1", port: closedPort(), timeout: 5 }, ALLOW_PRIVATE, resolveLocal);
    expect(r).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
  });

  test("a name that does not resolve is down: could not resolve host", async () => {
    const r = await checkTcp({ host: "nowhere.invalid", port: 80, timeout: 5 }, ALLOW_PRIVATE, resolveLocal);
    expect(r).toMatchObject({ up: false, error: "could not resolve host" });
  });

  test("the address policy refuses link-local targets and, when asked, private ones (also behind a name)", async () => {
    const l = await listener();
    expect((await checkTcp({ host: "169.254.169.254", port: 80, timeout: 5 }, ALLOW_PRIVATE, resolveLocal)).error).toStartWith("Target refused:");
    const strict = { allowPrivate: false };
    const r = await checkTcp({ host: "db.test", port: l.port, timeout: 5 }, strict, resolveLocal);
    expect(r.error).toStartWith("Target refused: db.test resolves to");
    await Bun.sleep(20);
    expect(l.accepted()).toBe(0);
  });

  test("a stopped check is cancelled", async () => {
    const l = await listener();
    const controller = new AbortController();
    controller.abort();
    const r = await checkTcp({ host: "127.0.0.1", port: l.port, timeout: 5 }, ALLOW_PRIVATE, resolveLocal, controller.signal);
    expect(r.up).toBe(false);
  });
});

describe("tcp fields", () => {
  const validate = (over: Partial<ReturnType<typeof defaultFields>>) => {
    const fields = { ...defaultFields(), type: "tcp" as const, ...over };
    tcpType.validate(fields, ALLOW_PRIVATE, true, {});
    return fields;
  };
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("hosts are normalised; the target reads host:port", () => {
    expect(validate({ host: " DB.Example.com. ", port: 5432 }).host).toBe("db.example.com");
    expect(tcpType.target(validate({ host: "[::1]", port: 6379 }))).toBe("[::1]:6379");
    expect(tcpType.target(validate({ host: "10.0.0.5", port: 22 }))).toBe("10.0.0.5:22");
  });

  test("bad input: no host, a URL, a host with a port, no port, a metadata address", () => {
    expect(codeOf(() => validate({ host: "", port: 80 }))).toBe("INVALID_HOST");
    expect(codeOf(() => validate({ host: "tcp://db:5432", port: 80 }))).toBe("INVALID_HOST");
    expect(codeOf(() => validate({ host: "db:5432", port: 80 }))).toBe("INVALID_HOST");
    expect(codeOf(() => validate({ host: "bad host", port: 80 }))).toBe("INVALID_HOST");
    expect(codeOf(() => validate({ host: "db.example.com", port: null }))).toBe("PORT_REQUIRED");
    expect(codeOf(() => validate({ host: "169.254.169.254", port: 80 }))).toBe("TARGET_FORBIDDEN");
  });
});
