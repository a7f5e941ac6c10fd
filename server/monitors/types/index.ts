// The check types by name, and one function that runs a monitor's check through its type.
import { cachedResolve } from "../../net/cached-resolve";
import { ALLOW_PRIVATE, type Resolve, type TargetPolicy } from "../../net/targets";
import type { MonitorType, SettingsTypeName } from "../public";
import type { MonitorFields } from "../field-rules";
import type { CheckOutcome, CheckState, CheckType } from "./check-type";
import { dnsType } from "./dns/dns";
import { groupType } from "./group/group";
import { createChecker, httpType, type Checker } from "./http/http";
import { pingType } from "./ping/ping";
import type { Pinger } from "./ping/pinger";
import { pushType } from "./push/push";
import { tcpType } from "./tcp/tcp";
import { flipOutcome } from "./upside-down";

export type { CheckOutcome, CheckState, CheckType };

export interface CheckTypesOptions {
  policy?: TargetPolicy;
  resolve?: Resolve;
  /** Replaces the HTTP request (tests). */
  httpChecker?: Checker;
  /** Replaces the system's pinger (tests); default: the ICMP socket, else the ping program. */
  pinger?: () => Pinger | null;
  now?: () => number;
  /** How long a minute of the intervals is (60 000; shorter in real-clock tests). */
  minuteMs?: number;
  /**
   * The later types (server/monitors/types/later-types.ts): passed in by the server, so the agent, which runs the
   * first types only, does not bundle their client libraries.
   */
  later?: Partial<Record<SettingsTypeName, CheckType>>;
}

export function createCheckTypes({ policy = ALLOW_PRIVATE, resolve = cachedResolve(), httpChecker, pinger, now = Date.now, minuteMs = 60_000, later = {} }: CheckTypesOptions = {}) {
  const types: Record<MonitorType, CheckType> = {
    http: httpType(httpChecker ?? createChecker({ policy, resolve })),
    tcp: tcpType,
    dns: dnsType,
    push: pushType,
    ping: pingType(pinger),
    group: groupType,
    ...(later as Record<SettingsTypeName, CheckType>),
  };
  return {
    of: (type: MonitorType): CheckType => types[type],
    /** Validates a monitor's type fields (resolveFields' hook). */
    validate: (fields: MonitorFields, p: TargetPolicy, creating: boolean, stored: Record<string, unknown>) =>
      types[fields.type].validate(fields, p, creating, stored),
    /** Releases what the types' checks share (the browser type's Chromium). */
    close: async () => {
      await Promise.all(Object.values(types).map((type) => type.close?.().catch(() => {})));
    },
    /** The settings as replies show them (secrets masked). */
    view: (fields: MonitorFields): Record<string, unknown> => types[fields.type].view?.(fields.settings) ?? fields.settings,
    /**
     * Runs one check of a monitor; null when there is nothing to record (a push monitor heard in time). An
     * upside-down monitor's verdict is flipped here, except a push monitor's silence: no call is never a pass (the
     * push route flips the calls themselves).
     */
    run: async (fields: MonitorFields, state: CheckState, signal?: AbortSignal): Promise<CheckOutcome | null> => {
      const outcome = await types[fields.type].check(fields, { signal, policy, resolve, now, minuteMs }, state);
      return outcome && fields.upsideDown && fields.type !== "push" ? flipOutcome(outcome) : outcome;
    },
  };
}

export type CheckTypes = ReturnType<typeof createCheckTypes>;
