// The part of net-snmp (no types published) the snmp type uses.
declare module "net-snmp" {
  import type { EventEmitter } from "node:events";

  export interface Varbind {
    oid: string;
    type: number;
    value: unknown;
  }
  export interface SessionOptions {
    port?: number;
    version?: number;
    transport?: "udp4" | "udp6";
    timeout?: number;
    retries?: number;
  }
  export interface User {
    name: string;
    level: number;
    authProtocol?: number;
    authKey?: string;
    privProtocol?: number;
    privKey?: string;
  }
  export interface Session extends EventEmitter {
    get(oids: string[], callback: (error: Error | null, varbinds?: Varbind[]) => void): void;
    close(): Session;
  }
  export function createSession(target: string, community: string, options?: SessionOptions): Session;
  export function createV3Session(target: string, user: User, options?: SessionOptions): Session;
  export function isVarbindError(varbind: Varbind): boolean;
  export function varbindError(varbind: Varbind): string;
  export const Version1: number;
  export const Version2c: number;
  export const Version3: number;
  export const ObjectType: Record<string, number> & Record<number, string>;
  export const SecurityLevel: Record<string, number>;
  export const AuthProtocols: Record<string, number>;
  export const PrivProtocols: Record<string, number>;
  export const ResponseInvalidCode: Record<string, number>;
}
