// Error budgets: an availability objective (99.9 % over 30 days) allows a share of failed checks (0.1 %); the budget
// left is what the window's failures have not used yet, and the burn rate how many times faster than "exactly spent at
// the window's end" failures come now. Alerts follow the multi-window, multi-burn-rate rules of Google's SRE workbook,
// scaled to the window: a fast burn spends 2 % of the budget in an hour (14.4× for 30 days) — over the last hour AND
// the last 5 minutes, so it also stops quickly —, a slow burn 5 % in 6 hours (6× for 30 days) over 6 hours and 30
// minutes. A budget at or below zero is spent.

export type BudgetState = "ok" | "burning-slow" | "burning-fast" | "exhausted";

/** The windows burn rates are read over. */
export const BURN_WINDOWS = { "5m": 5 * 60_000, "30m": 30 * 60_000, "1h": 3_600_000, "6h": 6 * 3_600_000 } as const;
export type BurnWindow = keyof typeof BURN_WINDOWS;

export interface WindowCounts {
  /** Checks counted (outside maintenance) and how many of them failed. */
  checks: number;
  down: number;
}

export interface ErrorBudget {
  objective: number;
  objectiveDays: number;
  /** The rolling window: [from, to). */
  from: number;
  to: number;
  checks: number;
  down: number;
  /** Percent of the window's counted checks that passed (null: none yet). */
  availability: number | null;
  /** Failed checks the objective allows over the window's checks so far. */
  allowedFailures: number;
  /** Percent of the budget left: 100 untouched, 0 spent, negative overspent. */
  remaining: number;
  /** The budget as time over the whole window ((100 - objective) % of it) and what is left of it, in ms. */
  budgetMs: number;
  remainingMs: number;
  burnRates: Record<BurnWindow, number>;
  thresholds: { fast: number; slow: number };
  state: BudgetState;
}

/** Burn-rate thresholds for a window of `days`: 2 % of the budget in 1 hour, 5 % in 6 hours. */
export const thresholdsFor = (days: number) => ({ fast: round(0.02 * days * 24, 2), slow: round((0.05 * days * 24) / 6, 2) });

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function burnRate(c: WindowCounts, objective: number): number {
  if (c.checks === 0) return 0;
  return round(c.down / c.checks / (1 - objective / 100), 2);
}

export function budgetOf(objective: number, days: number, to: number, window: WindowCounts, recent: Record<BurnWindow, WindowCounts>): ErrorBudget {
  const allowedShare = 1 - objective / 100;
  const allowedFailures = window.checks * allowedShare;
  const remaining = window.checks === 0 ? 100 : round(100 * (1 - window.down / allowedFailures), 2);
  const span = days * 86_400_000;
  const budgetMs = Math.round(span * allowedShare);
  const burnRates = Object.fromEntries(Object.keys(BURN_WINDOWS).map((w) => [w, burnRate(recent[w as BurnWindow], objective)])) as Record<BurnWindow, number>;
  const thresholds = thresholdsFor(days);
  const state: BudgetState =
    window.checks > 0 && remaining <= 0
      ? "exhausted"
      : burnRates["1h"] >= thresholds.fast && burnRates["5m"] >= thresholds.fast
        ? "burning-fast"
        : burnRates["6h"] >= thresholds.slow && burnRates["30m"] >= thresholds.slow
          ? "burning-slow"
          : "ok";
  return {
    objective,
    objectiveDays: days,
    from: to - span,
    to,
    checks: window.checks,
    down: window.down,
    availability: window.checks > 0 ? Math.floor(((window.checks - window.down) / window.checks) * 100_000 + 1e-9) / 1000 : null,
    allowedFailures: round(allowedFailures, 2),
    remaining,
    budgetMs,
    remainingMs: Math.round((budgetMs * remaining) / 100),
    burnRates,
    thresholds,
    state,
  };
}
