// The later types in the executable operators run: their client libraries load on the first check (require in a
// function, a dynamic import), which a bundling mistake would break only there. One check each, against local
// servers, through the API of dist/vigil: websocket, grpc, mongodb and a real browser.
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { startShippedServer, type ShippedServer } from "../../shipped-server";
import { startResponder, type Responder } from "./mongodb/responder";

let server: ShippedServer;
let token = "";
let site: ReturnType<typeof Bun.serve>;
let grpcServer: grpc.Server;
let grpcPort = 0;
let mongo: Responder;

beforeAll(async () => {
  server = await startShippedServer();
  const json = { "content-type": "application/json" };
  const account = JSON.stringify({ username: "alice", password: "correct horse", confirmPassword: "correct horse" });
  expect((await fetch(`${server.base}/api/auth/register`, { method: "POST", headers: json, body: account })).status).toBe(201);
  token = ((await (await fetch(`${server.base}/api/auth/login`, { method: "POST", headers: json, body: account })).json()) as { token: string }).token;
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req, srv) {
      if (new URL(req.url).pathname === "/ws") return srv.upgrade(req, { data: undefined }) ? undefined : new Response("no", { status: 400 });
      return new Response("<!doctype html><title>Shop</title><main id='ready'>All good</main>", { headers: { "content-type": "text/html" } });
    },
    websocket: {
      message(ws, m) {
        ws.send(`echo ${m}`);
      },
    },
  });
  grpcServer = new grpc.Server();
  new HealthImplementation({ "": "SERVING" }).addToServer(grpcServer);
  grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => (e ? reject(e) : resolve(port))),
  );
  mongo = await startResponder("answer");
}, 30_000);

afterAll(async () => {
  await server?.stop();
  site?.stop(true);
  grpcServer?.forceShutdown();
  await mongo?.stop();
});

async function checkOnce(type: string, settings: Record<string, unknown>) {
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const created = await fetch(`${server.base}/api/monitors`, { method: "POST", headers, body: JSON.stringify({ name: type, type, settings, timeout: 20, intervalSeconds: 60 }) });
  const body = (await created.json()) as { monitor: { id: number }; message?: string };
  expect(created.status, body.message).toBe(201);
  const res = await fetch(`${server.base}/api/monitors/${body.monitor.id}/check`, { method: "POST", headers });
  return ((await res.json()) as { result: { status: string; error: string | null } }).result;
}

test("websocket", async () => {
  expect(await checkOnce("websocket", { url: `ws://127.0.0.1:${site.port}/ws`, message: "hi", keyword: "echo hi" })).toMatchObject({ status: "up", error: null });
});

test("grpc (client loaded by a dynamic import)", async () => {
  expect(await checkOnce("grpc", { host: "127.0.0.1", port: grpcPort })).toMatchObject({ status: "up", error: null });
});

test("mongodb (the official driver, required on the first check)", async () => {
  expect(await checkOnce("mongodb", { connectionString: `mongodb://127.0.0.1:${mongo.port}/` })).toMatchObject({ status: "up", error: null });
});

test("browser (playwright-core and Chromium)", async () => {
  expect(await checkOnce("browser", { url: `http://127.0.0.1:${site.port}/`, selector: "#ready", keyword: "All good" })).toMatchObject({ status: "up", error: null });
}, 30_000);
