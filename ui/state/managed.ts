import { signal } from "@preact/signals-react";
import { listManaged, type ManagedKind, type ManagedObject } from "../api/configFile";

// The objects configuration files manage (GET /api/config/managed), shared by every mark: read again whenever a
// screen that shows marks opens, so an edit made a moment ago shows as drift.

/** "kind:objectId" → the managed object. */
export const managed = signal<ReadonlyMap<string, ManagedObject>>(new Map());

const id = (kind: ManagedKind, objectId: string | number) => `${kind}:${objectId}`;

let loading: Promise<void> | null = null;

export function reloadManaged(): Promise<void> {
  loading ??= listManaged()
    .then(({ managed: list }) => {
      managed.value = new Map(list.map((m) => [id(m.kind, m.objectId), m]));
    })
    .catch(() => {}) // no marks rather than an error: they are a hint
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** The managed object of one of these kinds with this id (a monitor may be a group), if a file manages it. */
export function managedOf(kinds: readonly ManagedKind[], objectId: string | number): ManagedObject | undefined {
  for (const kind of kinds) {
    const found = managed.value.get(id(kind, objectId));
    if (found) return found;
  }
  return undefined;
}
