// Limits of status-page subscriptions shared by the server and the UI.

/** The longest e-mail address accepted (RFC 5321). */
export const EMAIL_MAX = 254;
