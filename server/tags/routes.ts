import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { badRequest, notFound } from "../http/errors";
import { doc } from "../http/openapi";
import { LIMITS } from "../monitors/public";
import { TAG_COLOR_PATTERN, tagKey } from "./public";
import type { TagStore } from "./store";

export interface TagRouteDeps {
  store: TagStore;
  /** The tags of every monitor (the in-memory list). */
  monitorTags: () => (readonly string[])[];
  session: ReturnType<typeof sessions>;
}

const nameParams = t.Object({ name: t.String() });
const colorBody = t.Object({
  color: t.String({ pattern: TAG_COLOR_PATTERN, error: "The colour must be #rrggbb (six hex digits)" }),
});

/**
 * /api/tags: the tag names in use with their colours. Everyone signed in reads; editors and admins set and clear a
 * colour (the "user" level refuses viewers' changes). Only names some monitor carries can be given a colour, so
 * every colour set shows in the list and can be cleared from it.
 */
export function tagRoutes({ store, monitorTags, session }: TagRouteDeps) {
  const inUse = (name: string) => {
    const key = name.toLowerCase();
    return monitorTags().some((tags) => tags.some((tag) => tagKey(tag) === key));
  };
  /** The name from the path, checked: one a tag can have. */
  const checkedName = (raw: string) => {
    const name = raw.trim();
    if (!name) throw badRequest("VALIDATION", "A tag name is needed");
    if (name.includes(":")) throw badRequest("VALIDATION", "A tag name has no colon (what follows one is the tag's value)");
    if (name.length > LIMITS.tagLength) throw badRequest("VALIDATION", `A tag name has at most ${LIMITS.tagLength} characters`);
    return name;
  };
  const tagNotFound = (name: string) => notFound("TAG_NOT_FOUND", `No monitor has the tag "${name}"`);

  return new Elysia({ prefix: "/api", detail: { tags: ["monitors"] } })
    .use(session)
    .get("/tags", async () => ({ success: true, data: await store.list(monitorTags()) }), {
      auth: "user",
      detail: doc("The tag names in use (the part before a colon), with their colour (null: none chosen) and how many monitors carry each"),
    })
    .put(
      "/tags/:name",
      async ({ params, body }) => {
        const name = checkedName(params.name);
        if (!inUse(name)) throw tagNotFound(name);
        await store.setColor(name, body.color);
        return { success: true, message: "Tag colour saved" };
      },
      { auth: "user", params: nameParams, body: colorBody, detail: doc("Set a tag name's colour (#rrggbb)", 400, 404) },
    )
    .delete(
      "/tags/:name",
      async ({ params }) => {
        const name = checkedName(params.name);
        if (!(await store.clearColor(name)) && !inUse(name)) throw tagNotFound(name);
        return { success: true, message: "Tag colour cleared" };
      },
      { auth: "user", params: nameParams, detail: doc("Clear a tag name's colour (the tag stays on its monitors)", 400, 404) },
    );
}
