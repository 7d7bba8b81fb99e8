import { contractRules } from "../../api/rules.gen";
import type { FieldRule } from "../../forms/rules";

/** Deposit methods and their forms. */
export type DepositFormId = "326" | "328" | "329" | "332" | "300";
export type PayMethod = keyof typeof contractRules.paykassmaDepositLimits;
export const PAY_METHODS = Object.keys(contractRules.paykassmaDepositLimits) as PayMethod[];
export const VENEZUELA_BANKS = contractRules.forms.depositVenezuela.bankCode.one_of;
export const SCAN_AND_PAY: PayMethod = "ScanNPay";
export const DEPOSIT_PRESETS: readonly number[] = contractRules.depositPresets;
export const STATUS = contractRules.depositStatus;

const forms = contractRules.forms;

/** The rules of a method's form; 326 adds the UPI number for UPI, 328's amount follows its pay method. */
export function depositRules(method: DepositFormId, payMethod: PayMethod, upi: boolean): Record<string, FieldRule> {
  switch (method) {
    case "326":
      return upi ? { ...forms.deposit326, upi_no: contractRules.deposit326Upi } : forms.deposit326;
    case "328":
      return payMethod === "upi_l"
        ? { amount: contractRules.paykassmaDepositLimits[payMethod], upi_no: contractRules.paykassmaUpiAddress }
        : { amount: contractRules.paykassmaDepositLimits[payMethod] };
    case "329":
      return forms.depositTransact;
    case "332":
      return forms.depositVenezuela;
    case "300":
      return forms.deposit300;
  }
}

/** The fields each form starts with. */
export function depositInitial(method: DepositFormId): Record<string, string> {
  switch (method) {
    case "326":
      return { amount: "", mobileNumber: "", email: "", city: "", street: "", postal_code: "", upi_no: "" };
    case "328":
      return { amount: "", upi_no: "" };
    case "329":
      return { amount: "", email: "", phone: "" };
    case "332":
      return { amount: "", bankCode: "", number: "", clientPhone: "" };
    case "300":
      return { amount: "" };
  }
}

export interface DepositContext {
  currency: string;
  login: string;
  email: string;
  phone: string;
  address: string;
}

/** The platform's deposit payload: paymentType deposit, the method, the currency, the fields. */
export function depositBody(
  method: DepositFormId,
  payMethod: PayMethod,
  upi: boolean,
  values: Record<string, string>,
  ctx: DepositContext,
): Record<string, unknown> {
  const base = { paymentMethod: Number(method), paymentType: "deposit", currency: ctx.currency, amount: Number(values.amount) };
  const v = (name: string) => (values[name] ?? "").trim();
  switch (method) {
    case "326":
      return { ...base, type: upi ? "UPI" : "CARD", mobileNumber: v("mobileNumber"), email: v("email").toLowerCase(), city: v("city"), street: v("street"), postal_code: v("postal_code"), ...(upi ? { upi_no: v("upi_no") } : {}) };
    case "328":
      return { ...base, payMethod, userName: ctx.login, phoneNumber: ctx.phone || null, address: ctx.address || null, emailId: ctx.email || null, ...(payMethod === "upi_l" ? { upi_no: v("upi_no") } : {}) };
    case "329":
      return { ...base, email: v("email").toLowerCase(), phone: v("phone") };
    case "332":
      return { ...base, bankCode: v("bankCode"), number: v("number"), clientPhone: v("clientPhone"), userName: ctx.login };
    case "300":
      return base;
  }
}

/** The presets that fit the method's limits. */
export function presetsWithin(minimum: number | undefined, maximum: number | undefined): number[] {
  return DEPOSIT_PRESETS.filter((n) => (minimum === undefined || n >= minimum) && (maximum === undefined || n <= maximum));
}

/** Fewer of the spec's presets than this within a method's limits, and a ladder is offered instead. */
export const MIN_SPEC_PRESETS = 3;
/** How many amounts a ladder offers; a method without a maximum climbs to 100 times its minimum. */
export const LADDER_STEPS = 6;
const OPEN_TOP = 100;

/**
 * The amounts offered as one-tap choices: the spec's presets where at least three fit
 * the method's limits, otherwise a ladder within them: the minimum, then round 1-2-5 amounts up to
 * the maximum, six at most, spread evenly from the smallest to the largest.
 */
export function depositPresets(minimum: number | undefined, maximum: number | undefined): number[] {
  const low = Math.max(1, Math.ceil(minimum ?? 1));
  const high = maximum ?? low * OPEN_TOP;
  if (high < low) return [];
  const fitting = presetsWithin(low, high);
  if (fitting.length >= MIN_SPEC_PRESETS) return fitting;
  const rungs = [low, ...roundAmounts(low, high)];
  if (rungs.length <= LADDER_STEPS) return rungs;
  const picked = Array.from({ length: LADDER_STEPS }, (_, i) => rungs[Math.round((i * (rungs.length - 1)) / (LADDER_STEPS - 1))]!);
  return [...new Set(picked)];
}

/** 1, 2, 5, 10, 20, 50... strictly above `low`, up to `high`. */
function roundAmounts(low: number, high: number): number[] {
  const found: number[] = [];
  for (let scale = 1; scale <= high; scale *= 10) {
    for (const step of [1, 2, 5]) {
      const amount = step * scale;
      if (amount > low && amount <= high) found.push(amount);
    }
  }
  return found;
}

const PERFECT_MONEY = contractRules.perfectMoneyFailure;

/** The message a refused deposit shows: the perfect-money-style gateway (300) asks the
 * player to try again later; any other method shows the platform's own words. */
export function depositRefusal(method: DepositFormId, platformMessage: string): string {
  return Number(method) === PERFECT_MONEY.method ? PERFECT_MONEY.message : platformMessage;
}

/** What a deposit status check means while the page polls it. */
export function depositState(status: string | null | undefined): "pending" | "approved" | "other" {
  if (status === STATUS.approved) return "approved";
  if (status === "false" || status === STATUS.started || !status) return "pending";
  return "other";
}
