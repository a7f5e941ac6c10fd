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
    toPlainDate(): PlainDate;
    toPlainDateTime(): PlainDateTime;
    toString(): string;
  }
  class PlainDate {
    static from(item: string | { year: number; month: number; day: number }): PlainDate;
    readonly year: number;
    readonly month: number;
    readonly day: number;
    /** ISO: 1 = Monday … 7 = Sunday. */
    readonly dayOfWeek: number;
    readonly daysInMonth: number;
    add(duration: { days?: number; months?: number }): PlainDate;
    toPlainDateTime(time: { hour: number; minute: number }): PlainDateTime;
    toString(): string;
  }
  class PlainDateTime {
    static from(item: string | { year: number; month: number; day: number; hour?: number; minute?: number }): PlainDateTime;
    readonly year: number;
    readonly month: number;
    readonly day: number;
    readonly hour: number;
    readonly minute: number;
    toZonedDateTime(timeZone: string, options?: { disambiguation?: "compatible" | "earlier" | "later" | "reject" }): ZonedDateTime;
    toString(): string;
  }
}
