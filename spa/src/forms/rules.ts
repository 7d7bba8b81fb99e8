/** One field's rule as contracts/rules.py exports it (src/api/rules.gen.ts); messages in English,
 * the platform's words, translated through `messageKey`. */
export interface FieldRule {
  readonly required?: string;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly length_message?: string;
  readonly min_length_message?: string;
  readonly max_length_message?: string;
  readonly pattern?: string;
  readonly pattern_message?: string;
  readonly minimum?: number;
  readonly minimum_message?: string;
  readonly maximum?: number;
  readonly maximum_message?: string;
  readonly one_of?: readonly (string | number)[];
  readonly one_of_message?: string;
  readonly must_be_true?: boolean;
  readonly hint?: string;
}

export type FieldValue = string | boolean;

const patterns = new Map<string, RegExp>();
function regex(source: string): RegExp {
  let compiled = patterns.get(source);
  if (!compiled) patterns.set(source, (compiled = new RegExp(source)));
  return compiled;
}

/** The rule's message for the first check `value` fails, or null when it passes. Optional
 * fields (no `required`) pass when empty. */
export function checkField(rule: FieldRule, value: FieldValue): string | null {
  if (typeof value === "boolean") {
    return rule.must_be_true && !value ? (rule.required ?? "required") : null;
  }
  const text = value.trim();
  if (text === "") return rule.required ?? null;
  const length = value.length;
  if (rule.min_length !== undefined && length < rule.min_length) {
    return rule.min_length_message ?? rule.length_message ?? rule.required ?? null;
  }
  if (rule.max_length !== undefined && length > rule.max_length) {
    return rule.max_length_message ?? rule.length_message ?? rule.required ?? null;
  }
  if (rule.pattern !== undefined && !regex(rule.pattern).test(value)) {
    return rule.pattern_message ?? rule.required ?? null;
  }
  if (rule.minimum !== undefined || rule.maximum !== undefined) {
    const number = Number(text.replace(",", "."));
    if (!Number.isFinite(number)) return rule.required ?? rule.minimum_message ?? null;
    if (rule.minimum !== undefined && number < rule.minimum) return rule.minimum_message ?? null;
    if (rule.maximum !== undefined && number > rule.maximum) return rule.maximum_message ?? null;
  }
  if (rule.one_of !== undefined && !rule.one_of.map(String).includes(text)) {
    return rule.one_of_message ?? rule.required ?? null;
  }
  return null;
}

/** The `forms` namespace key of a platform message: "Enter valid username" -> "enter_valid_username". */
export function messageKey(message: string): string {
  return message
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}
