// npm run bench:notifications — a notification storm, measured.
//
// 500 monitors (1-minute interval, no retries) check a local target, all on 127.0.0.1. One webhook channel, one
// telegram channel and one SMTP channel point at local fakes (the SMTP one a real SMTP server, smtp-server); the telegram fake answers 429 with Retry-After for the first 20 s of each
// storm, as Telegram does to a chatty bot. The target goes dark: every monitor goes down within a minute. The script
// reports, per channel, the time from the first down verdict to the first message, how many messages carried the
// storm, how many of the 500 events they named, retries, and the server's CPU. Then the target comes back: the same
// for the recoveries. Everything stops by itself (each storm waits at most --timeout seconds).
//
//   bun scripts/bench/notifications.ts [--monitors 500] [--timeout 200] [--binary dist/vigil] [--keep]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { openDatabase } from "../../server/db/open";
import { apiClient, cpuSeconds, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    monitors: { type: "string", default: "500" },
    timeout: { type: "string", default: "200" },
    binary: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const N = Number(args.monitors);
const TIMEOUT_S = Number(args.timeout);
if (!Number.isInteger(N) || N < 1 || N > 9999 || !(TIMEOUT_S > 0)) {
  console.error("usage: bun scripts/bench/notifications.ts [--monitors 500] [--timeout 200] [--binary dist/vigil]");
  process.exit(2);
}
const PASSWORD = "bench password 1";
const BOT = `123456789:${"B".repeat(35)}`;
const name = (i: number) => `svc-${String(i).padStart(4, "0")}`;
const NAME_RE = /svc-\d{4}/g;

// The target: 200 while lit, 503 while dark; remembers the first answer after each flip (the storm's first verdict:
// without retries, that check decides).
let dark = false;
let firstAnswerAt = 0;
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch() {
    firstAnswerAt ||= Date.now();
    return dark ? new Response("down", { status: 503 }) : new Response("ok");
  },
});

interface Received {
  at: number;
  names: string[];
}
// The webhook fake: every message, with the monitors it names.
const webhook: Received[] = [];
const webhookFake = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as { events: { target: { name: string } }[] };
    webhook.push({ at: Date.now(), names: body.events.map((e) => e.target.name) });
    return new Response("ok");
  },
});
// The telegram fake: 429 with Retry-After while `limitedUntil`, then ok; counts refusals.
const telegram: Received[] = [];
let limitedUntil = 0;
let telegram429 = 0;
const telegramFake = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as { text: string };
    if (Date.now() < limitedUntil) {
      telegram429++;
      const retry = Math.ceil((limitedUntil - Date.now()) / 1000);
      return Response.json({ ok: false, error_code: 429, description: `Too Many Requests: retry after ${retry}`, parameters: { retry_after: retry } }, { status: 429, headers: { "retry-after": String(retry) } });
    }
    telegram.push({ at: Date.now(), names: [...new Set(body.text.match(NAME_RE) ?? [])] });
    return Response.json({ ok: true, result: { message_id: telegram.length } });
  },
});

// The SMTP server: every mail, with the monitors its plain text names.
const mails: Received[] = [];
const smtpFake = new SMTPServer({
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, _session, done) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      mails.push({ at: Date.now(), names: [...new Set(Buffer.concat(chunks).toString("utf8").match(NAME_RE) ?? [])] });
      done();
    });
  },
});
await new Promise<void>((r) => smtpFake.listen(0, "127.0.0.1", () => r()));
const smtpPort = (smtpFake.server.address() as AddressInfo).port;

interface StormResult {
  channel: string;
  firstMs: number | null;
  messages: number;
  covered: number;
  lastMs: number | null;
}

function measure(channel: string, received: Received[], from: number, start: number): StormResult {
  const mine = received.slice(from);
  const names = new Set(mine.flatMap((r) => r.names));
  return {
    channel,
    firstMs: mine.length ? mine[0].at - start : null,
    messages: mine.length,
    covered: names.size,
    lastMs: mine.length ? mine[mine.length - 1].at - start : null,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-notify-"));
  // The SQLite file the server opens: the raw client writes the monitors in bulk.
  const db = await openDatabase(join(dir, "vigil.db"));
  const sqlite = db.sqlite!;
  const insert = sqlite.prepare(
    "INSERT INTO monitors (name, settings, interval, timeout, retries, created_at, updated_at) VALUES (?, json_object('url', ?), 1, 10, 0, ?, ?)",
  );
  const now = Date.now();
  sqlite.transaction(() => {
    for (let i = 1; i <= N; i++) insert.run(name(i), `http://127.0.0.1:${target.port}/m/${i}`, now, now);
  })();
  await db.close();

  const server = await startServer(dir, { binary: args.binary, args: ["--telegram-api", `http://127.0.0.1:${telegramFake.port}`] });
  const call = apiClient(server.base);
  try {
    await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
    const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
    const hook = (await call("POST", "/api/notifications/channels", { name: "webhook", type: "webhook", config: { url: `http://127.0.0.1:${webhookFake.port}/` } }, token)).channel.id;
    const tg = (await call("POST", "/api/notifications/channels", { name: "telegram", type: "telegram", config: { botToken: BOT, chatId: "-1001" } }, token)).channel.id;
    const mail = (
      await call("POST", "/api/notifications/channels", { name: "smtp", type: "smtp", config: { host: "127.0.0.1", port: smtpPort, security: "none", from: "vigil@example.com", to: ["ops@example.com"] } }, token)
    ).channel.id;
    await call(
      "PUT",
      "/api/notifications/settings",
      {
        monitor: { enabled: true, channelIds: [hook, tg, mail], events: { down: true, recovery: true }, reminderMinutes: 0 },
        agent: { enabled: false, channelIds: [], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
        language: "en-US",
      },
      token,
    );
    const counts = async () => (await call("GET", "/api/dashboard", undefined, token)) as { up: number; down: number };
    const waitFor = async (ok: (c: { up: number; down: number }) => boolean, what: string) => {
      const end = Date.now() + TIMEOUT_S * 1000;
      while (Date.now() < end) {
        if (ok(await counts())) return;
        await Bun.sleep(1000);
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    process.stderr.write(`waiting for ${N} monitors to be up…\n`);
    await waitFor((c) => c.up === N, "every monitor up");

    const deliveries = async () => (await call("GET", "/api/notifications/deliveries?limit=500", undefined, token)).deliveries as { status: string; attempts: number }[];
    const storm = async (label: string, flip: () => void) => {
      const fromHook = webhook.length;
      const fromTg = telegram.length;
      const fromMail = mails.length;
      const refusedBefore = telegram429;
      const attemptsBefore = (await deliveries()).reduce((a, d) => a + d.attempts, 0);
      const pid = server.proc.pid;
      const cpuA = cpuSeconds(pid);
      const tA = performance.now();
      let peakRss = rssBytes(pid);
      const start = Date.now();
      limitedUntil = start + 20_000;
      flip();
      firstAnswerAt = 0;
      process.stderr.write(`${label}: waiting for all ${N} events on the three channels…\n`);
      const end = start + TIMEOUT_S * 1000;
      while (Date.now() < end) {
        await Bun.sleep(1000);
        peakRss = Math.max(peakRss, rssBytes(pid));
        const h = measure("webhook", webhook, fromHook, start);
        const t = measure("telegram", telegram, fromTg, start);
        const e = measure("smtp", mails, fromMail, start);
        if (h.covered >= N && t.covered >= N && e.covered >= N) break;
      }
      const cpu = ((cpuSeconds(pid) - cpuA) / ((performance.now() - tA) / 1000)) * 100;
      const verdictAt = firstAnswerAt || start;
      const all = await deliveries();
      const attempts = all.reduce((a, d) => a + d.attempts, 0) - attemptsBefore;
      return {
        label,
        rows: [measure("webhook", webhook, fromHook, verdictAt), measure("telegram", telegram, fromTg, verdictAt), measure("smtp", mails, fromMail, verdictAt)],
        telegram429: telegram429 - refusedBefore,
        retries: attempts - (webhook.length - fromHook) - (telegram.length - fromTg) - (mails.length - fromMail),
        cpu,
        peakRss,
      };
    };

    const down = await storm("down", () => (dark = true));
    await waitFor((c) => c.down === N, "every monitor down");
    const up = await storm("recovery", () => (dark = false));

    console.log(
      `Notification storm benchmark: ${N} monitors (1-minute interval, no retries), a webhook, a telegram and an SMTP channel on local fakes ` +
        `(telegram answers 429 + Retry-After for the first 20 s); ${cpus().length} cores, Bun ${Bun.version}; server: ${args.binary ?? "bun server/main.ts"}\n`,
    );
    console.log("| storm | channel | first message after the first verdict | messages | events named | last message | retries (all channels) | 429s | server CPU | peak RSS |");
    console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const s of [down, up]) {
      for (const r of s.rows) {
        const sec = (v: number | null) => (v === null ? "–" : `${(v / 1000).toFixed(1)} s`);
        console.log(
          `| ${s.label} | ${r.channel} | ${sec(r.firstMs)} | ${r.messages} | ${r.covered} / ${N} | ${sec(r.lastMs)} | ${s.retries} | ${r.channel === "telegram" ? s.telegram429 : 0} | ${s.cpu.toFixed(1)} % | ${mb(s.peakRss)} |`,
        );
      }
    }
  } finally {
    await server.stop();
    target.stop(true);
    webhookFake.stop(true);
    telegramFake.stop(true);
    await new Promise<void>((r) => smtpFake.close(() => r()));
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
