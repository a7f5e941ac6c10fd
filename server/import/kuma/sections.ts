// The sections of the Kuma import, in the order they run: a later one finds what an earlier one made through
// ImportLinks (a status page its monitors, a monitor's notifications their channels, the history its monitors).
import { historySection } from "./history";
import { maintenanceSection } from "./maintenance";
import { monitorsSection } from "./monitors";
import { notificationsSection } from "./notifications";
import type { KumaSection } from "./section";
import { settingsSection } from "./settings";
import { statusPagesSection } from "./status-pages";

export const SECTIONS: readonly KumaSection[] = [monitorsSection, notificationsSection, statusPagesSection, maintenanceSection, settingsSection, historySection];
