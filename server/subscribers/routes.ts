// Subscriptions to status pages: public calls to subscribe, confirm and unsubscribe (one-click, RFC 8058), and the
// admin's list of a page's subscribers. Nothing here ever answers with an address except to an admin.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { clientIp } from "../http/client-ip";
import { badRequest, notFound } from "../http/errors";
import { idField, idParams } from "../http/ids";
import { doc } from "../http/openapi";
import { serverUrl } from "../http/server-url";
import type { StatusService } from "../status/service";
import { DEFAULT_PAGE_ID, type StoredPage } from "../status/store";
import { EMAIL_MAX } from "./limits";
import type { LinkTarget, SubscriberService } from "./service";

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
  const linkReply = ({ page, email }: LinkTarget) => ({ success: true, page: pageRef(page), email });
  const noSubscription = (): never => {
    throw notFound("SUBSCRIPTION_NOT_FOUND", "No subscription has this link: it may have ended already");
  };

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
    // A mailed link opens a page that asks first (mail scanners open links): these GETs only say what it is for.
    .get(
      "/subscriptions/confirm",
      async ({ query }) => linkReply(await subscribers.confirmLink(query.token)),
      { query: t.Object({ token: tokenText }), detail: doc("What a confirmation link is for (its page, the address masked); changes nothing", 400) },
    )
    .post(
      "/subscriptions/confirm",
      async ({ body }) => ({ success: true, message: "Subscription confirmed", page: pageRef(await subscribers.confirm(body.token)) }),
      { body: t.Object({ token: tokenText }), detail: doc("Confirm a subscription with the token of its confirmation link", 400) },
    )
    .get(
      "/subscriptions/unsubscribe",
      async ({ query, request }) => {
        // The List-Unsubscribe URL opened in a browser (mail clients without one-click do that): the page that asks.
        if (request.headers.get("accept")?.includes("text/html")) {
          return new Response(null, { status: 303, headers: { location: `/status/unsubscribe?token=${encodeURIComponent(query.token)}` } });
        }
        return linkReply((await subscribers.unsubscribeLink(query.token)) ?? noSubscription());
      },
      { query: t.Object({ token: tokenText }), detail: doc("What an unsubscribe link is for (its page, the address masked); changes nothing", 400, 404) },
    )
    // Mail clients POST one-click unsubscribes (RFC 8058) to the List-Unsubscribe URL: the token in the query, the form
    // body "List-Unsubscribe=One-Click" (security.ts reads that one form). The unsubscribe page sends { token } in JSON.
    .post(
      "/subscriptions/unsubscribe",
      async ({ query, body }) => {
        if (query.token !== undefined && body?.["List-Unsubscribe"] !== "One-Click") {
          throw badRequest("ONE_CLICK_REQUIRED", "A one-click unsubscribe posts the form body List-Unsubscribe=One-Click");
        }
        if (!(await subscribers.unsubscribe(query.token ?? body?.token ?? ""))) noSubscription();
        return { success: true, message: "Unsubscribed" };
      },
      {
        query: t.Object({ token: t.Optional(tokenText) }),
        body: t.Optional(t.Object({ token: t.Optional(tokenText), "List-Unsubscribe": t.Optional(t.String({ maxLength: 100 })) })),
        detail: doc("End a subscription: ?token= with the form body List-Unsubscribe=One-Click (RFC 8058), or { token } in JSON", 400, 404),
      },
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
