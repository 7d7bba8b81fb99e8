import { describe, expect, it } from "vitest";

import { needsXsrf, readCookie } from "./xsrf";

describe("needsXsrf", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE", "post", "Delete"])("is true for %s", (method) => {
    expect(needsXsrf({ url: "/api/player/login", method })).toBe(true);
  });

  it.each(["GET", "HEAD", "OPTIONS", "get"])("is false for %s", (method) => {
    expect(needsXsrf({ url: "/bff/session", method })).toBe(false);
  });

  it("treats a bare URL and an object without a method as GET", () => {
    expect(needsXsrf("/bff/config")).toBe(false);
    expect(needsXsrf({ url: "/bff/config" })).toBe(false);
  });
});

describe("readCookie", () => {
  it("finds a cookie among others and decodes it", () => {
    expect(readCookie("XSRF-TOKEN", "a=1; XSRF-TOKEN=abc%3D%3D.sig; b=2")).toBe("abc==.sig");
  });

  it("does not match a cookie whose name only ends with the one asked for", () => {
    expect(readCookie("XSRF-TOKEN", "OLD-XSRF-TOKEN=nope")).toBeNull();
  });

  it("is null when the cookie is missing", () => {
    expect(readCookie("XSRF-TOKEN", "")).toBeNull();
  });
});
