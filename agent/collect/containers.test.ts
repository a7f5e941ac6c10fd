import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContainerCollector, defaultSockets, healthFromStatus, memoryUsed } from "./containers";

// The container collector against a fake Docker Engine API on a Unix socket (Bun.serve): the list, restarts and
// health from inspect, one-shot stats (CPU from two readings, memory without the page cache), the engine's name;
// and what it says without a socket, without permission, or when told not to look.

const dir = mkdtempSync(join(tmpdir(), "vigil-docker-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake engine: `containers` as /containers/json lists them, plus per-id inspect and stats documents. */
function fakeEngine(name: string, opts: { podman?: boolean; cpu?: () => [number, number] } = {}) {
  const socket = join(dir, `${name}.sock`);
  const seen: string[] = [];
  let cpu = opts.cpu ?? (() => [1_000_000_000, 100_000_000_000]);
  const server = Bun.serve({
    unix: socket,
    fetch(req) {
      const url = new URL(req.url);
      seen.push(url.pathname + url.search);
      if (url.pathname === "/version") {
        return Response.json(opts.podman ? { Version: "5.2.0", Components: [{ Name: "Podman Engine" }] } : { Version: "27.3.1", Components: [{ Name: "Engine" }] });
      }
      if (url.pathname === "/containers/json") {
        return Response.json([
          { Id: "a".repeat(64), Names: ["/web"], Image: "nginx:1.27", State: "running", Status: "Up 2 hours (healthy)" },
          { Id: "b".repeat(64), Names: ["/worker"], Image: "acme/worker:3", State: "exited", Status: "Exited (1) 5 minutes ago" },
          { Id: "c".repeat(64), Names: ["/db"], Image: "postgres:16", State: "running", Status: "Up 1 minute (unhealthy)" },
        ]);
      }
      const m = /^\/containers\/(\w+)\/(json|stats)$/.exec(url.pathname);
      if (!m) return new Response("not found", { status: 404 });
      const id = m[1]!;
      if (m[2] === "json") {
        const health = id.startsWith("c") ? "unhealthy" : id.startsWith("a") ? "healthy" : undefined;
        return Response.json({ RestartCount: id.startsWith("b") ? 7 : 0, State: { Status: "x", StartedAt: "2026-11-25T10:00:00.000Z", ...(health ? { Health: { Status: health } } : {}) } });
      }
      const [total, system] = cpu();
      return Response.json({
        cpu_stats: { cpu_usage: { total_usage: total }, system_cpu_usage: system, online_cpus: 4 },
        memory_stats: { usage: 300 * 2 ** 20, limit: 2 ** 30, stats: { inactive_file: 100 * 2 ** 20 } },
      });
    },
  });
  return { socket, seen, setCpu: (f: () => [number, number]) => (cpu = f), stop: () => server.stop(true) };
}

describe("reading the engine", () => {
  test("names, images, states, health, restarts, memory; CPU from the second reading on", async () => {
    const engine = fakeEngine("docker");
    try {
      const collector = new ContainerCollector(engine.socket);
      const first = await collector.snapshot(1_000);
      expect(first).toMatchObject({ time: 1_000, access: "ok", socket: engine.socket, engine: "Docker 27.3.1", total: 3 });
      const byName = Object.fromEntries(first.list.map((c) => [c.name, c]));
      expect(byName.web).toEqual({
        id: "aaaaaaaaaaaa", name: "web", image: "nginx:1.27", state: "running", health: "healthy", restarts: 0,
        cpu: null, memory: 200 * 2 ** 20, memoryLimit: 2 ** 30, startedAt: Date.parse("2026-11-25T10:00:00.000Z"),
      });
      expect(byName.worker).toMatchObject({ state: "exited", health: null, restarts: 7, cpu: null, memory: null });
      expect(byName.db).toMatchObject({ health: "unhealthy", state: "running" });
      // Stats only for running containers, one-shot.
      expect(engine.seen.filter((p) => p.includes("/stats"))).toEqual([`/containers/${"a".repeat(64)}/stats?stream=false&one-shot=true`, `/containers/${"c".repeat(64)}/stats?stream=false&one-shot=true`]);

      // 0.5 s of CPU over 10 s of all four cores' time: 5 % of one core × 4 = 20 %.
      engine.setCpu(() => [1_500_000_000, 110_000_000_000]);
      const second = await collector.snapshot(2_000);
      expect(second.list.find((c) => c.name === "web")!.cpu).toBe(20);
    } finally {
      engine.stop();
    }
  });

  test("Podman's compatible API is named as Podman", async () => {
    const engine = fakeEngine("podman", { podman: true });
    try {
      expect((await new ContainerCollector(engine.socket).snapshot()).engine).toBe("Podman 5.2.0");
    } finally {
      engine.stop();
    }
  });

  test("the first socket that exists is used when none is given", async () => {
    const engine = fakeEngine("found");
    try {
      const snap = await new ContainerCollector(undefined, { candidates: [join(dir, "missing.sock"), engine.socket] }).snapshot();
      expect([snap.access, snap.socket]).toEqual(["ok", engine.socket]);
    } finally {
      engine.stop();
    }
  });
});

describe("when it cannot look", () => {
  test("no socket: unavailable, saying where it looked", async () => {
    const snap = await new ContainerCollector(undefined, { candidates: [join(dir, "none.sock")] }).snapshot(5);
    expect(snap).toEqual({ time: 5, access: "unavailable", socket: join(dir, "none.sock"), total: 0, list: [], message: "no Docker or Podman socket found" });
  });

  test("a socket it may not read: denied, with what to do", async () => {
    const denied = Object.assign(new TypeError("EACCES: Was there a typo in the url or port?"), { code: "EACCES" });
    const collector = new ContainerCollector("/var/run/docker.sock", { request: async () => Promise.reject(denied) });
    expect(await collector.snapshot(5)).toMatchObject({ access: "denied", message: "permission denied reading /var/run/docker.sock: add the agent's user to the docker group" });
  });

  test("a socket that does not answer, and off", async () => {
    const snap = await new ContainerCollector(join(dir, "gone.sock")).snapshot();
    expect(snap.access).toBe("unavailable");
    expect(snap.message).toStartWith(`${join(dir, "gone.sock")} does not answer`);
    expect((await new ContainerCollector("off").snapshot(1)).access).toBe("off");
  });

  test("helpers: health from a status line, memory without the page cache, DOCKER_HOST first", () => {
    expect([healthFromStatus("Up 1 minute (health: starting)"), healthFromStatus("Up 2 days"), healthFromStatus("Up (unhealthy)")]).toEqual(["starting", null, "unhealthy"]);
    expect(memoryUsed({ usage: 1000, stats: { cache: 300 } })).toBe(700);
    expect(memoryUsed(undefined)).toBeNull();
    expect(defaultSockets({ DOCKER_HOST: "unix:///srv/docker.sock", XDG_RUNTIME_DIR: "/run/user/1000" })).toEqual([
      "/srv/docker.sock", "/var/run/docker.sock", "/run/podman/podman.sock", "/run/user/1000/podman/podman.sock", "/run/user/1000/docker.sock",
    ]);
  });
});
