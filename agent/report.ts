import type { ContainersSnapshot, HostInfo, Sample } from "../server/agents/protocol";
import { MAX_SAMPLES_PER_REPORT } from "../server/agents/limits";
import { MAX_BODY_BYTES } from "../server/http/limits";

export interface ReporterOptions {
  server: string;
  credential: string;
  /** Samples kept while the server is unreachable; the oldest are dropped past it. */
  capacity: number;
  /** Seconds between samples, told to the server so it knows when the agent is late. */
  interval: number;
  /** Starting byte budget of one report's body (default: the server's MAX_BODY_BYTES); lowered by what the server says. */
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  log?: (msg: string) => void;
}

/**
 * How a flush ended. "sent": everything buffered reached the server. "dropped": the buffer is empty, but the server
 * refused some samples for good (invalid, or too large on their own) and they were dropped. "retry": the server is
 * unreachable or failing; everything unsent is kept. "revoked": the credential is refused; everything is kept.
 */
export type SendOutcome = "sent" | "empty" | "dropped" | "retry" | "revoked";

/** A buffered sample, serialized once: its JSON and that JSON's UTF-8 size, so batches are sized without re-encoding. */
interface Buffered {
  time: number;
  json: string;
  bytes: number;
}

/** What the server said about one report. */
type Reply =
  | { kind: "accepted" }
  | { kind: "too-large" }
  | { kind: "invalid"; message: string }
  | { kind: "revoked" }
  | { kind: "retry" };

// A stated limit below this is not believed: no real server refuses a 16 KiB report, so it is a bug or garbage.
const MIN_CREDIBLE_MAX_BYTES = 16 * 1024;
const utf8Bytes = (s: string) => Buffer.byteLength(s, "utf8");

/**
 * Holds samples until the server has them. Each flush sends the oldest samples first, in reports of at most
 * MAX_SAMPLES_PER_REPORT samples and at most the byte budget (the server's body limit, or less if it says so), and
 * removes them only once the server accepted them, so an outage loses nothing (up to `capacity` samples). A report
 * refused as too large (413) is split, one refused as invalid (400) is bisected: the only samples ever dropped are
 * ones the server refused on their own.
 */
export class Reporter {
  private buffer: Buffered[] = [];
  private budget: number;
  /** Set while bisecting a report the server refused as invalid; lifted after the next accepted report. */
  private countCap: number | undefined;
  private readonly fetch: typeof fetch;
  private readonly log: (msg: string) => void;
  /**
   * The version of this agent's check assignments the server stated in the last accepted report's reply (`probes`;
   * "" when none are assigned), or undefined while no reply stated one (none accepted yet, or an older server).
   * agent/probes.ts asks for the assignments when it differs from the version it runs.
   */
  lastProbesVersion: string | undefined;

  constructor(private readonly options: ReporterOptions) {
    this.budget = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.fetch = options.fetch ?? fetch;
    this.log = options.log ?? ((m) => console.error(m));
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** The most bytes the next report's body may have. */
  get maxBodyBytes(): number {
    return this.budget;
  }

  add(sample: Sample): void {
    const json = JSON.stringify(sample);
    this.buffer.push({ time: sample.time, json, bytes: utf8Bytes(json) });
    if (this.buffer.length > this.options.capacity) {
      const dropped = this.buffer.length - this.options.capacity;
      this.buffer.splice(0, dropped);
      this.log(`buffer full: dropped the ${dropped} oldest sample(s)`);
    }
  }

  /** Sends everything buffered, oldest first. Stops at the first failure that needs waiting and says why. */
  async flush(host: HostInfo, containers?: ContainersSnapshot): Promise<SendOutcome> {
    if (this.buffer.length === 0) return "empty";
    // The containers as they are now ride with every report of this flush (they are a state, not a series).
    const extra = containers ? `,"containers":${JSON.stringify(containers)}` : "";
    const head = `{"host":${JSON.stringify(host)},"interval":${this.options.interval}${extra},"samples":[`;
    const tail = "]}";
    const envelopeBytes = utf8Bytes(head) + utf8Bytes(tail);
    let dropped = false;
    while (this.buffer.length > 0) {
      // The oldest samples that fit both limits; always at least one, so a big sample is still tried (and, if the
      // server refuses it alone, dropped instead of blocking the queue).
      const maxCount = Math.min(MAX_SAMPLES_PER_REPORT, this.countCap ?? Infinity);
      let bytes = envelopeBytes + this.buffer[0].bytes;
      let count = 1;
      while (count < maxCount && count < this.buffer.length && bytes + 1 + this.buffer[count].bytes <= this.budget) {
        bytes += 1 + this.buffer[count].bytes; // 1 for the comma
        count++;
      }
      const batch = this.buffer.slice(0, count);
      const reply = await this.send(head + batch.map((b) => b.json).join(",") + tail, count);
      switch (reply.kind) {
        case "accepted":
          this.remove(batch);
          this.countCap = undefined;
          break;
        case "too-large":
          if (count > 1) {
            // Split, keep everything: send(…) has already lowered the budget to a limit the server stated, if any.
            if (this.budget >= bytes) this.budget = Math.floor(bytes / 2);
          } else {
            this.log(`the server refused a sample of ${bytes} bytes as too large; dropped it (taken at ${new Date(batch[0].time).toISOString()})`);
            this.remove(batch);
            dropped = true;
          }
          break;
        case "invalid":
          if (count > 1) {
            // Some sample in it is bad: bisect so that only samples refused on their own are dropped. The cap stays
            // until a report is accepted, so a run of bad samples costs one request each, not a bisection each.
            if (this.countCap === undefined) this.log(`the server refused a report of ${count} samples as invalid (${reply.message}); bisecting it`);
            this.countCap = Math.floor(count / 2);
          } else {
            this.log(`the server refused a sample as invalid; dropped it (taken at ${new Date(batch[0].time).toISOString()}): ${reply.message}`);
            this.remove(batch);
            dropped = true;
          }
          break;
        default:
          return reply.kind;
      }
    }
    return dropped ? "dropped" : "sent";
  }

  /**
   * Removes a batch taken from the front of the buffer. `add` may have run while it was being sent and dropped the
   * oldest samples past capacity, so the batch is found by identity rather than assumed to be still in front.
   */
  private remove(batch: Buffered[]): void {
    const last = this.buffer.indexOf(batch[batch.length - 1]);
    if (last >= 0) this.buffer.splice(0, last + 1);
  }

  /** Lowers the byte budget to a limit the server states in any reply (`maxBytes`), if credible and lower. */
  private learn(body: unknown): void {
    const stated = (body as { maxBytes?: unknown } | null)?.maxBytes;
    if (typeof stated === "number" && Number.isSafeInteger(stated) && stated >= MIN_CREDIBLE_MAX_BYTES && stated < this.budget) {
      this.budget = stated;
    }
  }

  private async send(body: string, count: number): Promise<Reply> {
    let res: Response;
    try {
      res = await this.fetch(new URL("/api/agents/report", this.options.server), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.options.credential}` },
        body,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (e) {
      this.log(`cannot reach ${this.options.server}: ${(e as Error).message}; will retry`);
      return { kind: "retry" };
    }
    // The status decides; a reply body lost on the way only costs the stated limit (an accepted report resent
    // because its body was unreadable would be stored twice).
    const text = await res.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // a proxy's HTML error page, say
    }
    this.learn(parsed);
    if (res.ok) {
      const probes = (parsed as { probes?: unknown } | undefined)?.probes;
      if (typeof probes === "string") this.lastProbesVersion = probes;
      return { kind: "accepted" };
    }
    if (res.status === 401 || res.status === 403) {
      this.log(`the server no longer accepts this agent's credential (${res.status}); register again`);
      return { kind: "revoked" };
    }
    if (res.status === 413) {
      this.log(`the server refused a report of ${count} sample(s), ${utf8Bytes(body)} bytes, as too large; splitting it`);
      return { kind: "too-large" };
    }
    if (res.status === 400) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      return { kind: "invalid", message: typeof message === "string" ? message : text.slice(0, 200) };
    }
    this.log(`server answered ${res.status}; will retry`);
    return { kind: "retry" };
  }
}

/** Exponential back-off with jitter: 1 s, 2 s, 4 s … capped, so a fleet does not reconnect in lock-step. */
export function backoff(attempt: number, capMs = 60_000, random = Math.random): number {
  const base = Math.min(capMs, 1000 * 2 ** Math.min(attempt, 16));
  return Math.round(base / 2 + random() * (base / 2));
}
