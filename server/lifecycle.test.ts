// The services with timers start and stop from one list (server/lifecycle.ts): none can be left out — maintenance
// once was, and windows never began or ended by themselves (issue 38) — and in the shipped server each one runs.
import { afterAll, describe, expect, test } from "bun:test";
import { createServices, type Services } from "./app";
import { testDb } from "./db/test-db";
import { LIFECYCLE, startServices, stopServices } from "./lifecycle";
import { startShippedServer, type ShippedServer } from "./shipped-server";

const shipped: ShippedServer[] = [];
afterAll(async () => {
  for (const s of shipped.splice(0)) await s.stop();
});

const withStartStop = (services: Services) =>
  Object.entries(services)
    .filter(([, s]) => typeof (s as { start?: unknown }).start === "function" || typeof (s as { stop?: unknown }).stop === "function")
    .map(([name]) => name)
    .sort();

describe("lifecycle", () => {
  test("every service that has start or stop is in the list, and the list starts and stops each of them", async () => {
    const db = await testDb();
    try {
      const services = await createServices(db);
      expect(withStartStop(services)).toEqual([...LIFECYCLE].sort());
      expect(await startServices(services, { url: "http://127.0.0.1:1" })).toEqual([...LIFECYCLE]);
      let httpStopped = false;
      await stopServices(services, async () => {
        httpStopped = true;
      });
      expect(httpStopped).toBe(true);
      expect(LIFECYCLE.filter((name) => services[name].running)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  test("the shipped server runs every service with a timer (its startup line lists those running)", async () => {
    const server = await startShippedServer();
    shipped.push(server);
    const line = server.log().split("\n").find((l) => l.includes("listening on"))!;
    expect(/ services=(\S+)/.exec(line)?.[1]?.split(",")).toEqual([...LIFECYCLE]);
  }, 30_000);
});
