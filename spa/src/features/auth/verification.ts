import type { TFunction } from "i18next";

import type { PlatformReply } from "../../api/contracts.gen";

/** The platform's verification codes the site words in the player's language. */
const WORDED = {
  ACCOUNT_VERIFIED: "verify.codes.ACCOUNT_VERIFIED",
  ALREADY_VERIFIED: "verify.codes.ALREADY_VERIFIED",
} as const;

export interface VerificationNotice {
  variant: "success" | "error";
  text: string;
}

/**
 * What the e-mail verification popup says, in the spec's order: INVALID_TOKEN shows nothing (null);
 * any other code is shown (in the player's words when the site knows it, else as given); the
 * success variant only when `success` is true. Without a code, the reply's own words.
 */
export function verificationNotice(reply: PlatformReply, t: TFunction<"auth">): VerificationNotice | null {
  if (reply.code === "INVALID_TOKEN") return null;
  const variant = reply.success === true ? "success" : "error";
  const code = reply.code?.trim();
  if (code) return { variant, text: code in WORDED ? t(WORDED[code as keyof typeof WORDED]) : code };
  return { variant, text: reply.description ?? reply.message ?? t(variant === "success" ? "verify.done" : "verify.failed") };
}
