import { contractRules } from "../../api/rules.gen";
import type { FieldRule } from "../../forms/rules";

/** The withdrawal forms and where each one posts. */
export type WithdrawFormId = "formA" | "formB" | "bank" | "imps" | "transact";

/** The catalogue routes the withdrawal forms post to. */
export type WithdrawRoute = "cashout12" | "mercadoCashout" | "interKassaCashout" | "cashout";

export interface WithdrawForm {
  id: WithdrawFormId;
  route: WithdrawRoute;
  rules: Record<string, FieldRule>;
  initial: Record<string, string>;
  /** The body the platform expects, from the form's values. */
  body: (values: Record<string, string>, method: string) => Record<string, unknown>;
}

const forms = contractRules.forms;
/** The CUIT's first two digits a player chooses from (contracts/rules.py). */
export const CUIT_PREFIXES: readonly string[] = forms.withdrawFormB.cuitPrefix.one_of;
const text = (values: Record<string, string>, name: string) => (values[name] ?? "").trim();

export const WITHDRAW_FORMS: Record<WithdrawFormId, WithdrawForm> = {
  formA: {
    id: "formA",
    route: "cashout12",
    rules: forms.withdrawFormA,
    initial: { amount: "", accountType: "Paytm", personalNumber: "" },
    body: (v) => ({ paymentMethod: "paykassma", amount: Number(v.amount), accountType: v.accountType, personalNumber: text(v, "personalNumber").toUpperCase() }),
  },
  formB: {
    id: "formB",
    route: "mercadoCashout",
    rules: forms.withdrawFormB,
    // The amount comes last, so that the balance note shown below it sits under it.
    initial: { name: "", cbu: "", alias: "", phone: "", cuitPrefix: CUIT_PREFIXES[0]!, cuit: "", amount: "" },
    body: (v) => ({
      firstName: text(v, "name"),
      alias: text(v, "alias"),
      cbu: text(v, "cbu"),
      mobileNumber: text(v, "phone"),
      amount: Number(v.amount),
      // The prefix only means something with the number it starts.
      cuitPrefix: text(v, "cuit") ? v.cuitPrefix : null,
      cuit: text(v, "cuit") || null,
    }),
  },
  bank: {
    id: "bank",
    route: "interKassaCashout",
    rules: forms.withdrawBank,
    initial: { amount: "", personalNumber: "", ifsc: "", bankName: "", nameOnAccount: "", accountType: "Savings", address: "", city: "", state: "", zip: "", phone: "" },
    body: (v, method) => ({
      paymentMethod: method,
      amount: Number(v.amount),
      ifsc: text(v, "ifsc").toUpperCase(),
      accountType: v.accountType,
      bankName: text(v, "bankName"),
      nameOnAccount: text(v, "nameOnAccount"),
      personalNumber: text(v, "personalNumber"),
      address: text(v, "address"),
      city: text(v, "city"),
      state: text(v, "state"),
      zip: text(v, "zip"),
      phone: text(v, "phone"),
    }),
  },
  imps: {
    id: "imps",
    route: "cashout",
    rules: forms.withdrawImps,
    initial: { amount: "" },
    body: (v) => ({ paymentMethod: "imps", amount: Number(v.amount) }),
  },
  transact: {
    id: "transact",
    route: "cashout",
    rules: forms.withdrawTransact,
    initial: { amount: "" },
    body: (v) => ({ paymentMethod: "transact", amount: Number(v.amount) }),
  },
};

/** Paykassma shows form A; the bank, IMPS and Transact methods their own; anything else form B. */
export function formFor(methodName: string): WithdrawForm {
  const name = methodName.toLowerCase();
  if (name === "paykassma") return WITHDRAW_FORMS.formA;
  if (name === "bank" || name === "imps" || name === "transact") return WITHDRAW_FORMS[name];
  return WITHDRAW_FORMS.formB;
}

/** A form's rules for the account type chosen: on form A, the UPI type's personal number is a
 * UPI ID, id@handle (the UPI-based reading of the spec's rule). */
export function withdrawRules(form: WithdrawForm, accountType: string): Record<string, FieldRule> {
  return form.id === "formA" && accountType === "UPI" ? { ...form.rules, personalNumber: contractRules.paykassmaUpiAddress } : form.rules;
}

/** Form B's balance check: from 25 up, more than the cash is refused. */
export function exceedsCash(amount: string, cash: number | null | undefined): boolean {
  const value = Number(amount);
  return Number.isFinite(value) && value >= contractRules.balanceCheckFrom && value > (cash ?? 0);
}

export const INSUFFICIENT_BALANCE = contractRules.insufficientBalance;
