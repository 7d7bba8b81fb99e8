import type { ParseKeys } from "i18next";

type AuthKey = ParseKeys<"auth">;

/** Platform descriptions the site translates; any other is shown as given. */
const TRANSLATED: Record<string, AuthKey> = {
  LOGIN_FAILD: "errors.loginFailed",
  "Invalid Login or Password": "errors.invalidCredentials",
  "Login already used": "errors.usernameUsed",
};

/** The auth-namespace key for a platform description, or null to show it as given. */
export function loginErrorKey(description: string): AuthKey | null {
  return TRANSLATED[description.trim()] ?? null;
}
