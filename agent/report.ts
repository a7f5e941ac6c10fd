import type { HostInfo, Sample } from "../server/agents/protocol";
import { MAX_SAMPLES_PER_REPORT } from "../server/agents/limits";

export interface ReporterOptions {
  server: string;
  credential: string;
  /** Samples kept while the server is unreachable; the oldest are dropped past it. */
  capacity: number;
  /** Seconds between samples, told to the server so it knows when the agent is late. */
  interval: number;
  fetch?: typeof fetch;
  log?: (msg: string) => void;
}

export type SendOutcome = "sent" | "empty" | "retry" | "rejected" | "revoked";

/**
 * Holds samples until the server has them. Each flush sends the oldest samples first, in reports of at most
 * MAX_SAMPLES_PER_REPORT, and removes them only when the server accepted them, so an outage loses nothing
 * (up to `capacity` samples).
 */
export class Reporter {
  private buffer: Sample[] = [];
  private readonly fetch: typeof fetch;
  private readonly log: (msg: string) => void;

  constructor(private readonly options: ReporterOptions) {
    this.fetch = options.fetch ?? fetch;
    this.log = options.log ?? ((m) => console.error(m));
  }

  get pending(): number {
    return this.buffer.length;
  }

  add(sample: Sample): void {
    this.buffer.push(sample);
    if (this.buffer.length > this.options.capacity) {
      const dropped = this.buffer.length - this.options.capacity;
      this.buffer.splice(0, dropped);
      this.log(`buffer full: dropped the ${dropped} oldest sample(s)`);
    }
  }

  /** Sends everything buffered, oldest first. Stops at the first failure and says why. */
  async flush(host: HostInfo): Promise<SendOutcome> {
    if (this.buffer.length === 0) return "empty";
    while (this.buffer.length > 0) {
      const batch = this.buffer.slice(0, MAX_SAMPLES_PER_REPORT);
      const outcome = await this.send(host, batch);
      if (outcome !== "sent") {
        // A batch the server refuses as invalid would block the queue for ever: drop it and go on.
        if (outcome === "rejected") this.buffer.splice(0, batch.length);
        return outcome;
      }
      this.buffer.splice(0, batch.length);
    }
    return "sent";
  }

  private async send(host: HostInfo, samples: Sample[]): Promise<SendOutcome> {
    try {
      const res = await this.fetch(new URL("/api/agents/report", this.options.server), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.options.credential}` },
        body: JSON.stringify({ host, interval: this.options.interval, samples }),
        signal: AbortSignal.timeout(15_000),
      });
      if (res.ok) return "sent";
      const text = await res.text().catch(() => "");
      if (res.status === 401 || res.status === 403) {
        this.log(`the server no longer accepts this agent's credential (${res.status}); register again`);
        return "revoked";
      }
      if (res.status === 400 || res.status === 413) {
        this.log(`the server rejected ${samples.length} sample(s): ${text.slice(0, 200)}`);
        return "rejected";
      }
      this.log(`server answered ${res.status}; will retry`);
      return "retry";
    } catch (e) {
      this.log(`cannot reach ${this.options.server}: ${(e as Error).message}; will retry`);
      return "retry";
    }
  }
}

/** Exponential back-off with jitter: 1 s, 2 s, 4 s … capped, so a fleet does not reconnect in lock-step. */
export function backoff(attempt: number, capMs = 60_000, random = Math.random): number {
  const base = Math.min(capMs, 1000 * 2 ** Math.min(attempt, 16));
  return Math.round(base / 2 + random() * (base / 2));
}
