// The sections of the Kuma import, in the order they run: a later one finds what an earlier one made through
// ImportLinks (a status page its monitors, a monitor's notifications their channels).
import { monitorsSection } from "./monitors";
import type { KumaSection } from "./section";

export const SECTIONS: readonly KumaSection[] = [monitorsSection];
