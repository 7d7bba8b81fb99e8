import { describe, expect, it } from "vitest";

import { urlAsks } from "./urlAsks";

describe("whether an address asks the site for something on arrival", () => {
  it.each([
    ["/promotions", "?ID=AFF77&type=affiliate&click_id=c-1"],
    ["/home", "?type=agent"],
    ["/home", "?token=abc"],
    ["/deposit", "?sid=s-1"],
    ["/home", "?wsession=w-1"],
    ["/register", ""],
  ])("%s%s asks", (pathname, search) => {
    expect(urlAsks(pathname, search)).toBe(true);
  });

  it.each([
    ["/deposit", ""],
    ["/home", "?utm_source=mail"],
    ["/games/slots", "?provider=rubyplay"],
  ])("%s%s asks nothing", (pathname, search) => {
    expect(urlAsks(pathname, search)).toBe(false);
  });
});
