import { Suspense, useEffect, type ReactNode } from "react";
import { useLocation } from "wouter";
import { ErrorBoundary } from "./ErrorBoundary";
import { Footer } from "./Footer";
import { Navbar } from "./Navbar";
import { PageLoading } from "./PageLoading";

/** Navbar, the page, footer. Every path but /status renders inside it. */
export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  // A new page starts at its top. (Braces matter: newer browsers' scrollTo returns a promise, not a cleanup.)
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return (
    <div className="flex min-h-screen flex-col">
      <Navbar />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 lg:px-8">
        <ErrorBoundary key={location}>
          <Suspense fallback={<PageLoading />}>{children}</Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
