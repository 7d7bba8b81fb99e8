import { describe, expect, it } from "vitest";

import { contractRules } from "../api/rules.gen";
import en from "../locales/en/forms.json";
import es from "../locales/es/forms.json";
import pt from "../locales/pt/forms.json";
import { checkField, messageKey } from "./rules";

const { login, register, forgotPassword } = contractRules.forms;

describe("checkField (the validation rules, from the contracts)", () => {
  it.each([
    [login.login, "", "Enter valid username"],
    [login.login, "abc", "Username must be min 4 characters max 15 characters"],
    [login.login, "a".repeat(16), "Username must be min 4 characters max 15 characters"],
    [login.login, "josé1", "Enter alphabets and numeric only"],
    [login.login, "demo 1", "Enter alphabets and numeric only"],
    [login.login, "demo1", null],
    [login.password, "", "Enter valid password"],
    [login.password, "12345", "Password must be min 6 characters max 15 characters"],
    [register.password, "abc def", "Enter alphabets and numeric only"],
    [register.password, "secret123", null],
    [register.email, "player@", "Enter valid email"],
    [register.email, "Player@Example.com", null],
    [register.ssn, "", null],
    [register.ssn, "123", "SSN must be exactly 10 characters"],
    [register.phone, "12345", "Phone must be min 7 characters max 12 characters"],
    [register.acceptTerms, false, "Please agree the terms and conditions"],
    [register.acceptTerms, true, null],
    [forgotPassword.login, "ab", "Username must be min 4 characters max 15 characters"],
  ] as const)("%#: %j -> %s", (rule, value, expected) => {
    expect(checkField(rule, value)).toBe(expected);
  });
});

describe("messages", () => {
  const formsInUse = [login, register, forgotPassword];
  const messages = new Set(
    formsInUse.flatMap((form) =>
      Object.values(form).flatMap((rule) =>
        Object.entries(rule as Record<string, unknown>)
          .filter(([key, value]) => typeof value === "string" && (key.endsWith("message") || key === "required" || key === "hint"))
          .map(([, value]) => value as string),
      ),
    ),
  );

  it.each(["es", "pt", "en"] as const)("%s translates every message of the sign-in, sign-up and forgot-password forms", (lng) => {
    const translated = { es, pt, en }[lng].messages as Record<string, string>;
    expect([...messages].filter((message) => !translated[messageKey(message)])).toEqual([]);
  });

  it("keys a message by its words", () => {
    expect(messageKey("Enter valid username")).toBe("enter_valid_username");
    expect(messageKey("You don’t have enough Amount")).toBe("you_don_t_have_enough_amount");
  });
});

describe("every form message of the contracts", () => {
  it("has a translation in the forms namespace of each language", async () => {
    const messages = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object")
        for (const [name, value] of Object.entries(node)) {
          if (typeof value === "string" && (name === "required" || name === "hint" || name.endsWith("message"))) messages.add(value);
          else walk(value);
        }
    };
    // every rule set: the forms, and the deposit limits and UPI rules outside them (the password
    // and history messages have their own namespaces)
    const ownTexts = new Set(["passwordChangeMessages", "historyMessages"]);
    walk(Object.entries(contractRules).filter(([name]) => !ownTexts.has(name)));
    for (const lng of ["es", "pt", "en"]) {
      const forms = (await import(`../locales/${lng}/forms.json`)) as { default: { messages: Record<string, string> } };
      const missing = [...messages].filter((message) => !(messageKey(message) in forms.default.messages));
      expect(missing, lng).toEqual([]);
    }
  });
});
