import type { TwoFactorStatus } from "../../server/auth/two-factor/service";
import { api } from "./client";

// Two-factor sign-in (TOTP): your own set-up, and the admin's policy and reset.
/** With whether setting it up asks for the password (not of an account that signs in through single sign-on). */
export type TwoFactorState = TwoFactorStatus & { passwordRequired: boolean };

export const getTwoFactor = () => api.get<TwoFactorState>("/api/auth/2fa");

/** A new secret, its otpauth:// URI and QR code (SVG), until confirmed with a first code; needs the current password. */
export const setupTwoFactor = (currentPassword?: string) => api.post<{ secret: string; uri: string; qrSvg: string }>("/api/auth/2fa/setup", currentPassword ? { currentPassword } : {});

/** Turns it on with a first code: the ten recovery codes, shown this once. */
export const enableTwoFactor = (code: string) => api.post<{ recoveryCodes: string[] }>("/api/auth/2fa/enable", { code });

export const disableTwoFactor = (code: string) => api.post<object>("/api/auth/2fa/disable", { code });

export const setTwoFactorRequired = (required: boolean) => api.put<{ required: boolean }>("/api/auth/2fa/policy", { required });

export const resetTwoFactor = (userId: number) => api.post<object>(`/api/auth/2fa/reset/${userId}`);
