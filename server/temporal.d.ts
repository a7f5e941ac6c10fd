// Bun has the TC39 Temporal global, TypeScript 5.9 has no types for it yet: the few members Vigil uses.
declare namespace Temporal {
  class Instant {
    static fromEpochMilliseconds(ms: number): Instant;
    readonly epochMilliseconds: number;
    toZonedDateTimeISO(timeZone: string): ZonedDateTime;
  }
  class ZonedDateTime {
    readonly epochMilliseconds: number;
    readonly year: number;
    readonly month: number;
    readonly day: number;
    readonly hour: number;
    readonly minute: number;
    /** ISO weekday: 1 Monday … 7 Sunday. */
    readonly dayOfWeek: number;
    /** "2026-03-29T03:00:00+02:00[Europe/Berlin]" */
    toString(): string;
  }
  class PlainDateTime {
    static from(item: string | { year: number; month: number; day: number; hour?: number; minute?: number }): PlainDateTime;
    /** "compatible": a skipped time moves forward by the gap, a repeated one is the earlier. */
    toZonedDateTime(timeZone: string, options?: { disambiguation?: "compatible" | "earlier" | "later" | "reject" }): ZonedDateTime;
  }
  class PlainDate {
    static from(item: string | { year: number; month: number; day: number }, options?: { overflow?: "constrain" | "reject" }): PlainDate;
    static compare(a: PlainDate, b: PlainDate): number;
    readonly year: number;
    readonly month: number;
    readonly day: number;
    /** ISO weekday: 1 Monday … 7 Sunday. */
    readonly dayOfWeek: number;
    add(duration: { years?: number; months?: number; days?: number }): PlainDate;
    until(other: PlainDate): { readonly days: number };
    /** Midnight of the day in the zone (or the first instant after a skipped midnight). */
    toZonedDateTime(options: { timeZone: string }): ZonedDateTime;
  }
  namespace Now {
    function instant(): Instant;
  }
}
