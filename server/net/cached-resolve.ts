import { defaultResolve, type Resolve } from "./targets";

/**
 * Host name lookups for the policy, kept a minute (at most 10 000 names): 10 000 monitors on one host must not
 * mean 10 000 lookups a minute. The request itself resolves again through fetch's own cache.
 */
export function cachedResolve(resolve: Resolve = defaultResolve, ttlMs = 60_000, max = 10_000): Resolve {
  const cache = new Map<string, { addresses: string[]; at: number }>();
  return async (hostname) => {
    const hit = cache.get(hostname);
    const now = Date.now();
    if (hit && now - hit.at < ttlMs) return hit.addresses;
    const addresses = await resolve(hostname);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(hostname, { addresses, at: now });
    return addresses;
  };
}
