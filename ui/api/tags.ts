import type { PublicTag } from "../../server/tags/public";
import { api } from "./client";

// Tag names in use and their colours (server/tags/).
export type * from "../../server/tags/public";
export { splitTag, tagKey } from "../../server/tags/public";

export const listTags = () => api.get<{ data: PublicTag[] }>("/api/tags");
export const setTagColor = (name: string, color: string) => api.put<object>(`/api/tags/${encodeURIComponent(name)}`, { color });
export const clearTagColor = (name: string) => api.delete<object>(`/api/tags/${encodeURIComponent(name)}`);
