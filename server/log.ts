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
