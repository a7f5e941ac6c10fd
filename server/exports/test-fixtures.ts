// What the export tests share: CSV read back, and a GET whose body is read as text (an export is not the envelope).
import { expect } from "bun:test";
import { PASSWORD, type testApp } from "../test-support";

/** RFC 4180 back into rows (quoted fields, doubled quotes, CRLF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++;
    else field += c;
  }
  expect(field).toBe(""); // ends with CRLF
  return rows;
}

/** GET `path` as `token` (none: signed out), the body as text. */
export function getter(app: Awaited<ReturnType<typeof testApp>>["app"]) {
  return async (path: string, token?: string) => {
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

/** A viewer's token: "vera", made by the admin and signed in. */
export async function viewerToken(t: Awaited<ReturnType<typeof testApp>>, adminToken: string): Promise<string> {
  const vera = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: adminToken, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  const login = await t.call<{ token: string }>("POST", "/api/auth/login", { body: { username: "vera", password: PASSWORD } });
  return login.body.token;
}
