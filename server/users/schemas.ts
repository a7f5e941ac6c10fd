import { t } from "elysia";
import type { Role } from "./public";
import { idParams } from "../http/ids";

// Request field schemas shared by the auth and user routes. Messages are the ones a user sees.

/** No spaces, and no control characters (PostgreSQL cannot store NUL; none belongs in a name). */
export const usernameField = t.String({
  minLength: 3,
  maxLength: 32,
  pattern: "^[^\\s\\u0000-\\u001f\\u007f]+$",
  error: "Username must be 3-32 characters without spaces",
});

export const passwordField = t.String({
  minLength: 8,
  maxLength: 1024,
  error: "Password must be at least 8 characters",
});

/** Optional email: "" or null mean none. */
export const emailField = t.Optional(
  t.Union([t.Literal(""), t.Null(), t.String({ format: "email", maxLength: 254 })], { error: "Invalid email address" }),
);

/** A role as a request may name it: "user" is the old name of "editor", still accepted (normaliseRole). */
export const roleField = t.Union([t.Literal("admin"), t.Literal("editor"), t.Literal("viewer"), t.Literal("user")], { error: "Role must be admin, editor or viewer" });

/** The role a request named, "user" read as "editor" (clients written before viewers existed). */
export const normaliseRole = (role: "admin" | "editor" | "viewer" | "user"): Role => (role === "user" ? "editor" : role);
export const statusField = t.Union([t.Literal("active"), t.Literal("disabled")], { error: "Status must be active or disabled" });

export const userIdParams = idParams("user");

export const normaliseEmail = (email: string | null | undefined) => (email ? email.trim() : email === undefined ? undefined : null);
