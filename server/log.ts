import type { LogLevel } from "./config";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether a line at this level would be written (so a hot path can skip building its fields). */
  enabled(level: LogLevel): boolean;
}

/** One line per event: time, level, message, then key=value fields. */
export function createLogger(level: LogLevel, write: (line: string) => void = (l) => console.log(l)): Logger {
  const min = RANK[level];
  const emit = (lvl: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    const extra = fields
      ? " " + Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ")
      : "";
    write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${msg}${extra}`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error"), enabled: (lvl) => RANK[lvl] >= min };
}

export const silentLogger: Logger = createLogger("error", () => {});

export interface RepeatLog {
  /** Writes the line, or only counts it when it repeats the one before (same message and `key`). */
  report(msg: string, fields?: Record<string, unknown>, key?: string): void;
  /** The repeats are over (it works again): writes their count now, then `msg` (at info) if given. */
  end(msg?: string, fields?: Record<string, unknown>): void;
}

/**
 * Merges repeats of one failure into one line and a count: the first is written at once, the repeats are counted and
 * written as one "(repeated N more times)" line at most every `windowMs` while they go on, and when they end.
 * An outage of minutes then says so in a few lines instead of one per request or per retry.
 */
export function repeatMerging(log: Logger, level: "warn" | "error", windowMs = 60_000): RepeatLog {
  let current: { key: string; msg: string; fields?: Record<string, unknown> } | undefined;
  let repeats = 0;
  let timer: Timer | undefined;
  const writeRepeats = () => {
    clearTimeout(timer);
    timer = undefined;
    if (current && repeats > 0) log[level](`${current.msg} (repeated ${repeats} more ${repeats === 1 ? "time" : "times"})`, current.fields);
    repeats = 0;
  };
  return {
    report(msg, fields, key = `${msg}\0${String(fields?.error ?? "")}`) {
      if (current?.key === key) {
        repeats++;
        // Unref'd: a pending count must not keep a process alive that is otherwise done.
        timer ??= setTimeout(writeRepeats, windowMs);
        (timer as { unref?: () => void }).unref?.();
        current.fields = fields;
        return;
      }
      writeRepeats();
      current = { key, msg, fields };
      log[level](msg, fields);
    },
    end(msg, fields) {
      const was = current;
      writeRepeats();
      current = undefined;
      if (was && msg) log.info(msg, fields);
    },
  };
}
