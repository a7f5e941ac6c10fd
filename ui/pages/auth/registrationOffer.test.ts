import { expect, test } from "bun:test";
import type { SiteConfig } from "../../api/config";
import { registrationOffer } from "./registrationOffer";

const config = (firstRun: boolean, registrationOpen: boolean): SiteConfig => ({
  version: "1.0.0",
  links: { blog: "", video: "", tempMail: "" },
  firstRun,
  statusPage: null,
  registrationOpen,
  sso: null,
  passwordLogin: true,
});

test("closed registration offers asking for an invite, not registering", () => {
  expect(registrationOffer(config(false, false), true)).toBe("askForInvite");
});

test("a fresh instance offers creating the administrator; open registration offers registering", () => {
  expect(registrationOffer(config(true, true), true)).toBe("firstAdmin");
  expect(registrationOffer(config(false, true), true)).toBe("register");
});

test("nothing while the configuration loads; registering if it could not be read", () => {
  expect(registrationOffer(null, false)).toBe("loading");
  expect(registrationOffer(null, true)).toBe("register");
});
