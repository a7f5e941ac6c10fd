import type { Database, Statement } from "bun:sqlite";

/** Prepares each SQL text once and reuses it: hot read paths skip re-parsing their statements. */
export function statementCache(sqlite: Database): (sql: string) => Statement {
  const cache = new Map<string, Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = sqlite.prepare(sql)));
    return s;
  };
}
