// What every export shares: rows read a page at a time through the primary key (owner, time), and a text stream that
// asks for the next page only when the client has taken the last one, so memory stays flat whatever the range.

/** Rows read per query: small enough to keep memory flat, large enough that a year is ~100 queries. */
export const PAGE_ROWS = 5_000;

export type ExportFormat = "csv" | "ndjson";

/** Reads up to `limit` rows with time >= `cursor`, oldest first. */
export type PageReader<R extends { time: number }> = (cursor: number, limit: number) => Promise<R[]>;

/** The pages of rows from `from` on: each query starts just past the last row of the one before (keyset paging). */
export async function* pagesFrom<R extends { time: number }>(from: number, read: PageReader<R>, pageRows = PAGE_ROWS): AsyncGenerator<R[]> {
  let cursor = from;
  for (;;) {
    const rows = await read(cursor, pageRows);
    if (rows.length > 0) yield rows;
    if (rows.length < pageRows) return;
    cursor = rows[rows.length - 1]!.time + 1;
  }
}

/** A byte stream of the text `chunks` yields, pulled one chunk (one page) at a time; cancelling stops the reading. */
export function textStream(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
