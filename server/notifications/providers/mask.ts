// Secrets in API replies: masked so they can be recognised ("which key is this?") but not used, and restored on
// update when the client leaves them out or sends the mask back unchanged.

/** Shorter secrets are hidden whole: four characters of a short one would give too much away. */
const MIN_SHOWN = 12;

/**
 * `https://hooks.slack.com/…x9Qz` for a URL (scheme and host, then the last 4 characters), `••••x9Qz` for another
 * secret, `••••••••` when the value is shorter than 12 characters.
 */
export function mask(value: string): string {
  const url = parseHttpUrl(value);
  if (url) {
    const origin = `${url.protocol}//${url.host}`;
    // What follows the authority (path, query): the part that carries the key.
    const authority = value.indexOf("//") + 2;
    const end = value.slice(authority).search(/[/?#]/);
    const rest = end < 0 ? "" : value.slice(authority + end);
    return rest.length >= MIN_SHOWN ? `${origin}/…${value.slice(-4)}` : `${origin}/…`;
  }
  return value.length >= MIN_SHOWN ? `••••${value.slice(-4)}` : "••••••••";
}

/**
 * `https://••••@hooks.example.com/vigil?••••#••••` for a URL whose path names the user's own endpoint (a generic
 * webhook): scheme, host, port and path stay; credentials, query and fragment, where a key may sit, are each replaced
 * by ••••. A URL with none of them is returned unchanged; a value that is no http(s) URL is masked whole by `mask`.
 */
export function maskUrlKeys(value: string): string {
  const url = parseHttpUrl(value);
  if (!url) return mask(value);
  const { username, password, search, hash } = url;
  if (!username && !password && !search && !hash) return value;
  const credentials = username || password ? "••••@" : "";
  return `${url.protocol}//${credentials}${url.host}${url.pathname}${search ? "?••••" : ""}${hash ? "#••••" : ""}`;
}

/** A copy of `config` with its secret fields masked; absent (or empty) ones stay as they are. */
export function maskConfig(provider: HasSecrets, config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  for (const field of provider.secretFields) {
    const value = out[field];
    if (typeof value === "string" && value !== "") out[field] = maskerOf(provider, field)(value);
  }
  return out;
}

/**
 * `incoming` with each secret field taken from `stored` when it is left out or is exactly the stored value's mask.
 * An empty string removes the field: that clears an optional secret, and makes validation report a required one.
 */
export function mergeSecrets(
  provider: HasSecrets,
  stored: Record<string, unknown>,
  incoming: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...incoming };
  for (const field of provider.secretFields) {
    const value = out[field];
    const kept = stored[field];
    if (value === undefined || (typeof value === "string" && typeof kept === "string" && value.trim() === maskerOf(provider, field)(kept))) {
      if (kept === undefined) delete out[field];
      else out[field] = kept;
    } else if (typeof value === "string" && value.trim() === "") {
      delete out[field];
    }
  }
  return out;
}

/** A provider, or anything that lists its secret fields (and how some of them are masked, when not by `mask`). */
export interface HasSecrets {
  readonly secretFields: readonly string[];
  readonly masks?: Readonly<Record<string, ((value: string) => string) | undefined>>;
}

const maskerOf = (provider: HasSecrets, field: string) => provider.masks?.[field] ?? mask;

function parseHttpUrl(value: string): URL | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
