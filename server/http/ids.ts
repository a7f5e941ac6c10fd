import { t } from "elysia";

/**
 * A path id: a positive decimal integer written plainly ("12", not "1e1", "012" or "1.0"), handed to the route as a
 * number. `what` names the thing in the error message ("Invalid user id").
 */
export const idParams = (what: string) =>
  t.Object({ id: idField(what) });

/** One path id field (for routes with two ids: `/:id/subscribers/:subscriberId`). */
export const idField = (what: string) =>
  t
    .Transform(t.String({ pattern: "^[1-9][0-9]{0,14}$", error: `Invalid ${what} id` }))
    .Decode((value) => Number(value))
    .Encode((value) => String(value));
