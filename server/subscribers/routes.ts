// Subscriptions to status pages: public calls to subscribe, confirm and unsubscribe (one-click, RFC 8058), and the
// admin's list of a page's subscribers. Nothing here ever answers with an address except to an admin.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { clientIp } from "../http/client-ip";
import { notFound } from "../http/errors";
import { idField, idParams } from "../http/ids";
import { doc } from "../http/openapi";
import { serverUrl } from "../http/server-url";
import type { StatusService } from "../status/service";
import { DEFAULT_PAGE_ID, type StoredPage } from "../status/store";
import { EMAIL_MAX } from "./limits";
import type { SubscriberService } from "./service";

export interface SubscriberRouteDeps {
  subscribers: SubscriberService;
  status: StatusService;
  session: ReturnType<typeof sessions>;
  publicUrl?: string;
  trustProxy: number;
}

const slugParams = t.Object({ slug: t.String({ maxLength: 64 }) });
const tokenText = t.String({ maxLength: 100, error: "token must be the link's token" });

export function subscriberRoutes({ subscribers, status, session, publicUrl, trustProxy }: SubscriberRouteDeps) {
  async function bySlug(slug: string): Promise<StoredPage> {
    const page = await status.bySlug(slug);
    if (!page) throw notFound("STATUS_PAGE_NOT_FOUND", "Status page not found");
    return page;
  }
  const pageRef = (p: StoredPage) => ({ title: p.title, slug: p.slug, path: `/status${p.id === DEFAULT_PAGE_ID ? "" : `/${p.slug}`}` });

  const publicRoutes = new Elysia({ prefix: "/api/status", detail: { tags: ["status"] } })
    .get(
      "/pages/:slug/subscriptions",
      async ({ params, set }) => {
        set.headers["cache-control"] = "public, max-age=60";
        return { success: true, available: await subscribers.available(await bySlug(params.slug)) };
      },
      { params: slugParams, detail: doc("Whether the page offers e-mail subscriptions (a public page, with an SMTP channel to send them)", 404) },
    )
    .post(
      "/pages/:slug/subscribe",
      async ({ params, body, request, server, set }) => {
        const page = await bySlug(params.slug);
        await subscribers.subscribe(page, body.email, clientIp(request, server, trustProxy), serverUrl(request, publicUrl, trustProxy));
        set.status = 202;
        // The same answer, after the same work, whether the address was new, pending or already subscribed.
        return { success: true, message: "Check your inbox: follow the link in the mail to confirm" };
      },
      {
        params: slugParams,
        body: t.Object({ email: t.String({ maxLength: EMAIL_MAX, error: "Enter a valid e-mail address" }) }),
        detail: doc("Subscribe an e-mail address to a page's incident and maintenance notices (a confirmation mail is queued)", 400, 404, 429),
      },
    )
    .post(
      "/subscriptions/confirm",
      async ({ body }) => ({ success: true, message: "Subscription confirmed", page: pageRef(await subscribers.confirm(body.token)) }),
      { body: t.Object({ token: tokenText }), detail: doc("Confirm a subscription with the token of its confirmation link", 400) },
    )
    // One-click unsubscribe: mail clients POST to the List-Unsubscribe URL (token in the query, a form body
    // "List-Unsubscribe=One-Click", let through unread by security.ts); the unsubscribe page sends { token } in JSON.
    .post(
      "/subscriptions/unsubscribe",
      async ({ query, body }) => {
        const secret = (query.token ?? body?.token ?? "").slice(0, 100);
        if (!(await subscribers.unsubscribe(secret))) throw notFound("SUBSCRIPTION_NOT_FOUND", "No subscription has this link: it may have ended already");
        return { success: true, message: "Unsubscribed" };
      },
      { query: t.Object({ token: t.Optional(t.String()) }), body: t.Optional(t.Object({ token: t.Optional(t.String()) })), detail: doc("End a subscription by its unsubscribe token (?token=, or { token } in JSON)", 404) },
    );

  const adminRoutes = new Elysia({ prefix: "/api/status-pages", detail: { tags: ["status"] } })
    .use(session)
    .get(
      "/:id/subscribers",
      async ({ params }) => {
        if (!(await status.page(params.id))) throw notFound("STATUS_PAGE_NOT_FOUND", "Status page not found");
        return { success: true, ...(await subscribers.list(params.id)) };
      },
      { auth: "admin", params: idParams("status page"), detail: doc("A page's subscribers with their addresses (admins only)") },
    )
    .delete(
      "/:id/subscribers/:subscriberId",
      async ({ params }) => {
        if (!(await subscribers.remove(params.id, params.subscriberId))) throw notFound("SUBSCRIBER_NOT_FOUND", "Subscriber not found");
        return { success: true, message: "Subscriber removed" };
      },
      {
        auth: "admin",
        params: t.Object({ id: idField("status page"), subscriberId: idField("subscriber") }),
        detail: doc("Remove a subscriber (admins only)"),
      },
    );

  return new Elysia().use(publicRoutes).use(adminRoutes);
}
