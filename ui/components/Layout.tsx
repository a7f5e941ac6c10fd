import { ViewerNote } from "./guards";
import { Suspense, useEffect, type ReactNode } from "react";
import { useLocation } from "wouter";
import { useLocationProperty } from "wouter/use-browser-location";
import { ErrorBoundary } from "./ErrorBoundary";
import { Footer } from "./Footer";
import { Navbar } from "./Navbar";
import { PageLoading } from "./PageLoading";

const currentHash = () => window.location.hash;

/**
 * Scrolls to the element with this id as soon as it shows (a lazily loaded page renders a moment later), and keeps it
 * there while the page settles: cards above it that finish loading change their height and would move it away. Stops
 * after a moment, or as soon as the reader scrolls themselves.
 */
function scrollToSection(id: string): () => void {
  let scrolledTo: number | null = null;
  const scroll = () => {
    const section = document.getElementById(id);
    section?.scrollIntoView({ block: "start" });
    if (section) scrolledTo = window.scrollY;
    return section !== null;
  };
  /**
   * Someone else scrolled since (the reader, a script): the page is theirs. A card settling moves it by less than a
   * screen's third; the browser follows such shifts by itself.
   */
  const movedAway = () => scrolledTo !== null && Math.abs(window.scrollY - scrolledTo) > window.innerHeight / 3;
  let found = scroll();
  let settle: ReturnType<typeof setTimeout> | null = null;
  const stop = () => {
    observer.disconnect();
    resized.disconnect();
    clearTimeout(timer);
    if (settle) clearTimeout(settle);
    for (const event of USER_SCROLL) window.removeEventListener(event, stop);
  };
  const observer = new MutationObserver(() => {
    if (movedAway()) return stop();
    found = scroll();
    if (found && !settle) settle = setTimeout(stop, 1_500);
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  // Heights also change without a DOM change (a font or an image arriving): follow the page's size too.
  const resized = new ResizeObserver(() => (movedAway() ? stop() : found && scroll()));
  resized.observe(document.body);
  const timer = setTimeout(stop, 10_000);
  if (found) settle = setTimeout(stop, 1_500);
  for (const event of USER_SCROLL) window.addEventListener(event, stop, { passive: true, once: true });
  return stop;
}

/** What the reader does to scroll: from then on the page is theirs. */
const USER_SCROLL = ["wheel", "touchstart", "keydown", "mousedown"] as const;

/** Navbar, the page, footer. Every path but /status renders inside it. */
export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const hash = useLocationProperty(currentHash);
  // A new page starts at its top, or at the section its link names (/profile#api-tokens from the user menu).
  // (Braces matter: newer browsers' scrollTo returns a promise, not a cleanup.)
  useEffect(() => {
    const section = decodeURIComponent(hash.slice(1));
    if (section) return scrollToSection(section);
    window.scrollTo(0, 0);
  }, [location, hash]);
  return (
    <div className="flex min-h-screen flex-col">
      {/* Printed pages (a report to PDF) are the page alone. */}
      <div className="print:hidden">
        <Navbar />
      </div>
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 lg:px-8 print:max-w-none print:p-0">
        <div className="print:hidden">
          <ViewerNote />
        </div>
        <ErrorBoundary key={location}>
          <Suspense fallback={<PageLoading />}>{children}</Suspense>
        </ErrorBoundary>
      </main>
      <div className="print:hidden">
        <Footer />
      </div>
    </div>
  );
}
