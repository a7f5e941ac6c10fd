import { ViewerNote } from "./guards";
import { Suspense, useEffect, type ReactNode } from "react";
import { useLocation } from "wouter";
import { useLocationProperty } from "wouter/use-browser-location";
import { ErrorBoundary } from "./ErrorBoundary";
import { Footer } from "./Footer";
import { Navbar } from "./Navbar";
import { PageLoading } from "./PageLoading";

const currentHash = () => window.location.hash;

/** Scrolls to the element with this id now, or as soon as it shows (a lazily loaded page renders a moment later). */
function scrollToSection(id: string): () => void {
  const scroll = () => {
    const section = document.getElementById(id);
    section?.scrollIntoView({ block: "start" });
    return section !== null;
  };
  if (scroll()) return () => {};
  const observer = new MutationObserver(() => scroll() && observer.disconnect());
  observer.observe(document.body, { childList: true, subtree: true });
  const timer = setTimeout(() => observer.disconnect(), 10_000);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}

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
