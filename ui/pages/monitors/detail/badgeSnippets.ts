/** Where a monitor's badge lives and what to paste into a README or a web page to show it, linked to the status page. */
export function badgeSnippets(name: string, monitorId: number, statusPageUrl: string) {
  const base = statusPageUrl.replace(/\/status$/, "");
  const image = `${base}/api/status/badge/${monitorId}.svg`;
  const markdownText = name.replace(/[\\[\]]/g, "\\$&");
  const html = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    image,
    markdown: `[![${markdownText}](${image})](${statusPageUrl})`,
    html: `<a href="${html(statusPageUrl)}"><img src="${html(image)}" alt="${html(name)}"></a>`,
  };
}
