import { expect, test } from "bun:test";
import { badgeSnippets } from "./badgeSnippets";

test("badge snippets use the public address and escape the monitor's name for Markdown and HTML", () => {
  const s = badgeSnippets('API [eu] <"prod"> & co', 7, "https://status.example.com/status");
  expect(s.image).toBe("https://status.example.com/api/status/badge/7.svg");
  expect(s.markdown).toBe("[![API \\[eu\\] <\"prod\"> & co](https://status.example.com/api/status/badge/7.svg)](https://status.example.com/status)");
  expect(s.html).toBe('<a href="https://status.example.com/status"><img src="https://status.example.com/api/status/badge/7.svg" alt="API [eu] &#60;&#34;prod&#34;&#62; &#38; co"></a>');
});
