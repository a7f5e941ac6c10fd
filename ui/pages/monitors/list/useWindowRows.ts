import { useLayoutEffect, useState, type RefObject } from "react";
import { windowRange } from "../listModel";

// A window virtualizer for one list of fixed-height rows scrolled with the page: only the rows in (or near) the
// viewport are in the DOM; padding above and below stands for the rest, so the page keeps its full height and its
// scrollbar tells the truth.
//
// Hand-written rather than a dependency (@tanstack/react-virtual, react-window, react-virtuoso): with one fixed row
// height per layout it is arithmetic on scrollY (listModel.windowRange, unit-tested), about 50 lines; the libraries
// would add 6-15 KB gzipped for measuring variable heights and scrolling inner containers, which this list does not
// need — it scrolls with the page so the browser's own scrollbar, keyboard scrolling, find-in-page of visible rows and
// the sticky navbar behave as on every other page.

export interface WindowRows {
  start: number;
  end: number;
  /** Padding standing for the rows above `start` and below `end`. */
  padTop: number;
  padBottom: number;
}

/**
 * The rows to render of `count` rows of `rowHeight` px whose first row starts at the top of `ref`'s element.
 * Recomputed on scroll and resize (once per frame at most), and when the page above the list changes height.
 */
export function useWindowRows(ref: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 6): WindowRows {
  const [range, setRange] = useState(() => ({ start: 0, end: Math.min(count, 30) }));

  useLayoutEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      const next = windowRange({
        scrollTop: window.scrollY,
        viewportHeight: window.innerHeight,
        listTop: el.getBoundingClientRect().top + window.scrollY,
        rowHeight,
        count,
        overscan,
      });
      setRange((r) => (r.start === next.start && r.end === next.end ? r : next));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure(); // before the first paint: the right rows from the start
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    // The toolbar above the list can change height (tag chips wrapping, a message appearing) without any scroll.
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(schedule);
    observer?.observe(document.body);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      observer?.disconnect();
    };
  }, [ref, count, rowHeight, overscan]);

  // A shorter list than the last range (filtering) is clamped at once, before the effect measures again.
  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}
