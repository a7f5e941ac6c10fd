// The sections after monitors, groups and tags, in the order apply writes them (channels before the monitors that
// name them is handled by apply.ts; status pages and maintenance name monitors).
import { secretPaths, type Form } from "../model";
import type { Kind } from "../schema";
import { channels } from "./channels";
import type { SectionDef } from "./section";
import { maintenance } from "./maintenance";
import { statusPages } from "./status-pages";

export const SECTION_DEFS: SectionDef[] = [channels, statusPages, maintenance];

export const sectionOf = (kind: string): SectionDef | undefined => SECTION_DEFS.find((d) => d.kind === kind);

/** Field paths ("settings.password", "config.url", "password") whose values are secrets, for any kind. */
export const secretsOf = (kind: Kind, form: Form): Map<string, true | "url"> => sectionOf(kind)?.secrets(form) ?? secretPaths(kind, form);
