import { expect, test } from "bun:test";
import { DEFAULT_INVITE_ROLE as SERVER_INVITE_ROLE, INVITE_HOURS } from "../../server/registration/service";
import { DEFAULT_INVITE_ROLE, DEFAULT_INVITE_VALIDITY, INVITE_VALIDITY_HOURS, inviteLink } from "./registration";

test("an invite link is this server's /register with the token in the query", () => {
  expect(inviteLink("http://127.0.0.1:3000", "vgl_inv_abc")).toBe("http://127.0.0.1:3000/register?invite=vgl_inv_abc");
  expect(inviteLink("https://vigil.example.com/", "a+b/c")).toBe("https://vigil.example.com/register?invite=a%2Bb%2Fc");
});

test("the validity choices are ones the server accepts, its default among them", () => {
  for (const hours of INVITE_VALIDITY_HOURS) {
    expect(Number.isInteger(hours) && hours >= INVITE_HOURS.min && hours <= INVITE_HOURS.max).toBe(true);
  }
  expect<number>(DEFAULT_INVITE_VALIDITY).toBe(INVITE_HOURS.default);
});

test("the invite form starts on Viewer, the least role and the first it lists, as the server does when none is sent", () => {
  expect(DEFAULT_INVITE_ROLE).toBe("viewer");
  expect(SERVER_INVITE_ROLE).toBe("viewer");
});
