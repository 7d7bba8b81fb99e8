import { describe, expect, it } from "vitest";

import { DEFAULT_FAILURE, replyFailure, toAppError } from "./errors";

describe("toAppError", () => {
  it("prefers the client error message for a network failure", () => {
    const error = toAppError({ status: "FETCH_ERROR", error: "TypeError: Failed to fetch" });
    expect(error.message).toBe("TypeError: Failed to fetch");
  });

  it("takes the body message, then the description, then the default", () => {
    expect(toAppError({ status: 502, data: { message: "Upstream unavailable", code: "UPSTREAM" } })).toEqual({
      status: 502,
      code: "UPSTREAM",
      message: "Upstream unavailable",
      fields: {},
    });
    expect(toAppError({ status: 400, data: { description: "Invalid site" } }).message).toBe("Invalid site");
    expect(toAppError({ status: 500, data: "<html>oops</html>" }).message).toBe(DEFAULT_FAILURE);
    expect(toAppError(undefined).message).toBe(DEFAULT_FAILURE);
  });

  it("keeps the platform's field-level messages", () => {
    const error = toAppError({
      status: 422,
      data: { description: "Enter valid email", errors: { email: "Enter valid email", login: "" } },
    });
    expect(error.fields).toEqual({ email: "Enter valid email" });
  });

  it("reads a thrown error's message", () => {
    expect(toAppError({ name: "Error", message: "Aborted" }).message).toBe("Aborted");
  });
});

describe("replyFailure", () => {
  it("shows the platform's message or description as given, else the default", () => {
    expect(replyFailure({ message: "Maintenance" })).toBe("Maintenance");
    expect(replyFailure({ description: "Invalid Login or Password" })).toBe("Invalid Login or Password");
    expect(replyFailure({})).toBe(DEFAULT_FAILURE);
  });
});

describe("the gateway's own errors", () => {
  it("are told in the player's language by their code", async () => {
    const { default: i18n } = await import("../i18n");
    const busy = { status: 503, data: { message: "The platform is not answering, please try again", code: "UPSTREAM_UNAVAILABLE", requestId: "r1" } };
    await i18n.changeLanguage("es");
    expect(toAppError(busy).message).toBe("El servicio no está disponible en este momento. Inténtalo de nuevo en unos minutos.");
    await i18n.changeLanguage("pt");
    expect(toAppError(busy).message).toMatch(/^O serviço não está disponível/);
    await i18n.changeLanguage("en");
    expect(toAppError(busy).message).toMatch(/^The service is not available/);
    await i18n.changeLanguage("es");
  });

  it("say a sign-in blocked after an operator ended the account's sessions, in the player's language", async () => {
    const { default: i18n } = await import("../i18n");
    const blocked = { status: 403, data: { message: "An operator ended this account's sessions", code: "SIGN_IN_BLOCKED", requestId: "r3" } };
    await i18n.changeLanguage("pt");
    expect(toAppError(blocked).message).toMatch(/^Um operador encerrou as sessões desta conta/);
    await i18n.changeLanguage("es");
    expect(toAppError(blocked).message).toMatch(/^Un operador cerró las sesiones de esta cuenta/);
  });

  it("keep the gateway's text for a code the site does not know, and never touch the platform's replies", () => {
    expect(toAppError({ status: 409, data: { message: "Brand new refusal", code: "SOMETHING_NEW", requestId: "r2" } }).message).toBe(
      "Brand new refusal",
    );
    expect(toAppError({ status: 404, data: { success: false, code: "NOT_FOUND", description: "Media not found" } }).message).toBe(
      "Media not found",
    );
  });
});
