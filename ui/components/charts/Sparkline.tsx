import { useEffect, useRef, useState } from "react";
import uPlot from "uplot"; // its stylesheet is imported by ui/app.css
import { isolatedIndexes } from "./chartData";

// A tiny line chart without axes, legend or cursor, for pages that show many of them at once (the public status
// page: one per monitor, up to hundreds). A chart is only built once its place scrolls near the screen, all places
// watched by one shared IntersectionObserver, so a long page costs nothing for what nobody looks at.

export interface SparklineProps {
  /** Unix ms, ascending. */
  times: number[];
  /** One value per time; null leaves a gap. */
  values: (number | null)[];
  width: number;
  height: number;
  /** Line colour (hex). */
  color?: string;
  /** Accessible name of the figure. */
  label: string;
  className?: string;
  "data-testid"?: string;
}

const waiting = new Map<Element, () => void>();
let observer: IntersectionObserver | null = null;

/** Calls `onVisible` once, when `el` comes within 200 px of the viewport; returns a function that stops waiting. */
function whenVisible(el: Element, onVisible: () => void): () => void {
  if (typeof IntersectionObserver === "undefined") {
    onVisible();
    return () => {};
  }
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const call = waiting.get(entry.target);
        waiting.delete(entry.target);
        observer?.unobserve(entry.target);
        call?.();
      }
    },
    { rootMargin: "200px" },
  );
  waiting.set(el, onVisible);
  observer.observe(el);
  return () => {
    waiting.delete(el);
    observer?.unobserve(el);
  };
}

const isolated = (values: (number | null)[]) => {
  const idxs = isolatedIndexes(values);
  return idxs.length ? idxs : null;
};

const toData = (times: number[], values: (number | null)[]): uPlot.AlignedData => [times.map((t) => t / 1000), values];

export function Sparkline({ times, values, width, height, color = "#6366f1", label, className = "", ...rest }: SparklineProps) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [visible, setVisible] = useState(false);
  const latest = useRef({ times, values });
  latest.current = { times, values };

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    return whenVisible(el, () => setVisible(true));
  }, []);

  useEffect(() => {
    const el = holder.current;
    if (!visible || !el) return;
    const plot = new uPlot(
      {
        width,
        height,
        padding: [3, 2, 3, 2],
        legend: { show: false },
        cursor: { show: false },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        axes: [{ show: false }, { show: false }],
        scales: {
          x: { time: false },
          // From 0 so that a flat line near zero does not look like wild swings.
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
        },
        series: [
          {},
          {
            stroke: color,
            width: 1.5,
            fill: `${color}1f`,
            spanGaps: false,
            // No markers, except for a value between two gaps: without one it would not show at all.
            points: { show: true, size: 4, fill: color, filter: (u: uPlot, si: number) => isolated(u.data[si] as (number | null)[]) },
          },
        ],
      },
      toData(latest.current.times, latest.current.values),
      el,
    );
    chart.current = plot;
    return () => {
      plot.destroy();
      chart.current = null;
    };
  }, [visible, width, height, color]);

  // New values for the same chart: redraw without rebuilding.
  useEffect(() => {
    chart.current?.setData(toData(times, values));
  }, [times, values]);

  return <div ref={holder} role="img" aria-label={label} className={`shrink-0 ${className}`} style={{ width, height }} {...rest} />;
}
