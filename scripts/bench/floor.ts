// The runtime's floor for a check: a bare Bun process making the same requests as Vigil's http monitors (GET with a
// user agent and a timeout, the body read), spread the same way over a 1-minute interval, with nothing stored,
// scheduled or announced. monitors.ts runs it beside Vigil and reports Vigil's CPU per check against it.
//
//   bun scripts/bench/floor.ts --base http://127.0.0.1:PORT --n 3000 --mode batched|timers [--insecure] --seconds 70
//
//   --mode batched  one 100 ms tick starts every check due in it (the cheapest schedule: ≤ 10 wake-ups a second)
//   --mode timers   one repeating timer per URL (a wake-up per check)
//   --insecure      accept the target's self-signed certificate (as a monitor's "ignore TLS errors")
// URLs are `${base}/m/${i}` for i in 1..n, monitor i's phase i·60 s/n. Exits by itself after --seconds.
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    base: { type: "string" },
    n: { type: "string" },
    mode: { type: "string", default: "batched" },
    insecure: { type: "boolean", default: false },
    seconds: { type: "string", default: "70" },
  },
});
const n = Number(args.n);
const seconds = Number(args.seconds);
if (!args.base || !(n > 0) || !(seconds > 0) || (args.mode !== "batched" && args.mode !== "timers")) {
  console.error("usage: bun scripts/bench/floor.ts --base URL --n N --mode batched|timers [--insecure] [--seconds 70]");
  process.exit(2);
}

const INTERVAL = 60_000;
const TICK = 100;
const init: RequestInit & { tls?: { rejectUnauthorized: boolean } } = {
  headers: { "user-agent": "Vigil-floor (benchmark)" },
  ...(args.insecure ? { tls: { rejectUnauthorized: false } } : {}),
};
let done = 0;
let failed = 0;

function check(url: string) {
  fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
    .then((res) => res.arrayBuffer())
    .then(
      () => done++,
      () => failed++,
    );
}

const urls = Array.from({ length: n }, (_, i) => `${args.base}/m/${i + 1}`);
const phase = (i: number) => Math.floor((i * INTERVAL) / n);
const t0 = Date.now();

if (args.mode === "timers") {
  urls.forEach((url, i) => {
    setTimeout(() => {
      check(url);
      setInterval(() => check(url), INTERVAL);
    }, phase(i));
  });
} else {
  // Phases ascend with i: each tick starts the URLs from where the last one stopped up to now's offset in the minute.
  let next = 0;
  let minute = 0;
  setInterval(() => {
    const elapsed = Date.now() - t0;
    while (minute * INTERVAL + (next < n ? phase(next) : INTERVAL) <= elapsed) {
      if (next < n) check(urls[next++]);
      else {
        next = 0;
        minute++;
      }
    }
  }, TICK);
}

setTimeout(() => {
  console.log(JSON.stringify({ done, failed }));
  process.exit(0);
}, seconds * 1000);
