import { useSignals } from "@preact/signals-react/runtime";
import { useTranslation } from "react-i18next";
import { siteConfig } from "../state/config";

export function Footer() {
  useSignals();
  const { t } = useTranslation();
  const links = siteConfig.value?.links;
  const items = links
    ? [
        { href: links.blog, label: t("footer.blog"), id: "blog" },
        { href: links.video, label: t("footer.video"), id: "video" },
        { href: links.tempMail, label: t("footer.tempMail"), id: "temp-mail" },
      ]
    : [];
  return (
    <footer data-testid="footer" className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-500 sm:flex-row sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
          <p data-testid="footer-copyright">{t("footer.copyright", { year: new Date().getFullYear() })}</p>
          {/* This server's own REST API reference (a page outside the app, so a plain link). */}
          <a href="/api/docs" data-testid="footer-api-docs" className="hover:text-indigo-600 hover:underline">
            {t("footer.apiDocs")}
          </a>
        </div>
        <ul aria-label={t("footer.links")} className="flex flex-wrap items-center gap-x-6 gap-y-2">
          {items.map((item) => (
            <li key={item.id}>
              <a
                href={item.href}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={`footer-${item.id}`}
                className="hover:text-indigo-600 hover:underline"
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
