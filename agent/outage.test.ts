// A 10-minute outage of a big host's agent against the real server app (in process, over an in-memory database):
// when the server is back, the backlog arrives whole even though it is far over the server's 1 MiB body limit.
import { afterAll, describe, expect, test } from "bun:test";
import { MAX_SAMPLES_PER_REPORT } from "../server/agents/limits";
import type { AgentSeries, PublicAgent, Sample } from "../server/agents/public";
import { MAX_BODY_BYTES } from "../server/http/limits";
import { testApp } from "../server/test-support";
import { Collector } from "./collect";
import { Reporter, type SendOutcome } from "./report";
import { bigHostRoot } from "./test-support";

const fixture = bigHostRoot();
afterAll(() => fixture.remove());

const SERVER = "http://localhost"; // Elysia 404s hosts shorter than 4 characters
const OUTAGE_SAMPLES = 600;

/** The real app with a user and a registered agent, and 600 samples of the 16-disk, 16-interface fixture host. */
async function setup() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const collector = new Collector({ procRoot: fixture.root, agentVersion: "t" });
  const host = collector.host();
  const minted = await t.call<{ token: string }>("POST", "/api/agents/tokens", { token });
  const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: minted.body.token, host } });
  expect(reg.status).toBe(201);
  // One sample a second over a 10-minute outage ending now.
  const now = Date.now();
  const samples: Sample[] = Array.from({ length: OUTAGE_SAMPLES }, (_, i) => ({ ...collector.sample(), time: now - (OUTAGE_SAMPLES - 1 - i) * 1000 }));

  /** The agent's fetch: refused while `up` is false, else the real app; records every report's size and status. */
  const requests: { bytes: number; status: number }[] = [];
  const server = { up: false };
  const fetchFn = (async (url: string | URL | Request, init?: RequestInit) => {
    if (!server.up) throw new Error("Unable to connect. Is the computer able to access the url?");
    const res = await t.app.handle(new Request(url, init));
    requests.push({ bytes: Buffer.byteLength(String(init!.body), "utf8"), status: res.status });
    return res;
  }) as typeof fetch;
  const logs: string[] = [];
  const reporter = (maxBodyBytes?: number) =>
    new Reporter({ server: SERVER, credential: reg.body.credential, capacity: 2160, interval: 1, maxBodyBytes, fetch: fetchFn, log: (m) => logs.push(m) });

  /** Feeds the samples through the outage (a flush attempt every 10 s, all failing), then brings the server back. */
  async function outageThenRecovery(r: Reporter, samples: Sample[]): Promise<SendOutcome> {
    for (const [i, s] of samples.entries()) {
      r.add(s);
      if (i % 10 === 9) expect(await r.flush(host)).toBe("retry");
    }
    expect(r.pending).toBe(samples.length);
    server.up = true;
    return r.flush(host);
  }

  async function stored() {
    t.services.agents.flush(); // the server writes samples in batches
    const series = await t.call<{ series: AgentSeries }>("GET", `/api/agents/${reg.body.agentId}/series?range=1h`, { token });
    const agent = await t.call<{ agent: PublicAgent }>("GET", `/api/agents/${reg.body.agentId}`, { token });
    return { series: series.body.series, agent: agent.body.agent };
  }

  return { t, host, samples, requests, logs, server, reporter, outageThenRecovery, stored, credential: reg.body.credential };
}

describe.skipIf(process.platform !== "linux")("a 10-minute outage of a host with 16 disks and 16 interfaces", () => {
  test("the old agent's 500-sample report would not fit: over 1 MiB, and the real server answers 413", async () => {
    const { t, host, samples, credential } = await setup();
    const old = JSON.stringify({ host, interval: 1, samples: samples.slice(0, MAX_SAMPLES_PER_REPORT) });
    expect(Buffer.byteLength(old, "utf8")).toBeGreaterThan(MAX_BODY_BYTES);
    const res = await t.call("POST", "/api/agents/report", { token: credential, raw: old });
    expect([res.status, res.body.code]).toEqual([413, "BODY_TOO_LARGE"]);
  });

  test("every sample of the outage is stored once the server is back; no report exceeds 1 MiB, none is refused", async () => {
    const { samples, requests, logs, reporter, outageThenRecovery, stored } = await setup();
    const r = reporter();
    expect(await outageThenRecovery(r, samples)).toBe("sent");
    expect(r.pending).toBe(0);
    expect(requests.every((q) => q.status === 200 && q.bytes <= MAX_BODY_BYTES)).toBe(true);
    expect(requests.length).toBeGreaterThanOrEqual(3); // ≈ 2.8 MB of samples: split by bytes, not by count
    expect(logs.filter((l) => l.includes("dropped"))).toEqual([]);

    const { series, agent } = await stored();
    expect(series.times).toEqual(samples.map((s) => s.time));
    expect(Object.keys(series.avg).filter((k) => k.startsWith("disk:"))).toHaveLength(16);
    expect(Object.keys(series.avg).filter((k) => k.startsWith("rx:"))).toHaveLength(16);
    expect(series.avg["disk:/srv/data/volume-14"]).toHaveLength(OUTAGE_SAMPLES);
    expect(agent.latest!.time).toBe(samples.at(-1)!.time);
    expect([agent.latest!.disks.length, agent.latest!.network.length]).toEqual([16, 16]);
  });

  test("an agent that starts with a bigger budget learns the limit from the real 413 and still loses nothing", async () => {
    const { samples, requests, reporter, outageThenRecovery, stored } = await setup();
    const r = reporter(8 * MAX_BODY_BYTES); // as if built for a server with a higher limit
    expect(await outageThenRecovery(r, samples)).toBe("sent");
    expect(requests.filter((q) => q.status === 413).length).toBeGreaterThanOrEqual(1);
    expect(r.maxBodyBytes).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect((await stored()).series.times).toEqual(samples.map((s) => s.time));
  });

  test("one sample the real server refuses as invalid is the only one lost", async () => {
    const { samples, requests, logs, reporter, outageThenRecovery, stored } = await setup();
    const bad = samples[250];
    const withBad = samples.map((s) => (s === bad ? { ...s, cpu: { ...s.cpu, usage: 250 } } : s));
    const r = reporter();
    expect(await outageThenRecovery(r, withBad)).toBe("dropped");
    expect(requests.some((q) => q.status === 400)).toBe(true);
    expect(logs.filter((l) => l.includes("dropped it"))).toHaveLength(1);
    expect((await stored()).series.times).toEqual(samples.filter((s) => s !== bad).map((s) => s.time));
  });
});
