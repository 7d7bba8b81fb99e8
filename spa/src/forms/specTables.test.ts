import { describe, expect, it } from "vitest";

import { contractRules } from "../api/rules.gen";
import { checkField, type FieldRule } from "./rules";

/**
 * The spec's validation tables, case by case: each form's field
 * with a value and the message the player must see (null: accepted).
 */
const forms = contractRules.forms as unknown as Record<string, Record<string, FieldRule>>;
const limits = contractRules.paykassmaDepositLimits as unknown as Record<string, FieldRule>;

type Case = [form: string, field: string, value: string, message: string | null];

const CASES: Case[] = [
  // Password change
  ["passwordChange", "oldPassword", "", "Enter old password"],
  ["passwordChange", "newPassword", "", "Enter new password"],
  ["passwordChange", "newPassword", "abc", "Password must be min 6 characters max 15 characters"],
  ["passwordChange", "newPassword", "abc def1", "Enter alphabets and numeric only"],
  ["passwordChange", "newPassword", "abcdef12", null],
  // Bank account
  ["bankAccount", "bankAccountNumber", "", "Enter Bank Account Number!"],
  ["bankAccount", "bankAccountNumber", "12345678", "Enter Valid Account Number"],
  ["bankAccount", "bankAccountNumber", "123456789", null],
  ["bankAccount", "bankName", "Bank 1", "Enter Valid Bank Name"],
  ["bankAccount", "accountBranchName", "", "Enter Branch Name!"],
  ["bankAccount", "nameOnAccount", "Ana-Maria", "Enter Valid Name On Account"],
  ["bankAccount", "accountType", "Savings", null],
  ["bankAccount", "personalNumber", "SBI0001234", "Enter Valid IFSC Code"],
  ["bankAccount", "personalNumber", "SBIN0001234", null],
  // Deposits
  ["deposit326", "amount", "99", "Minimum 100"],
  ["deposit326", "amount", "1e3", "Enter digits only"],
  ["deposit326", "mobileNumber", "5876543210", "Enter valid phone"],
  ["deposit326", "mobileNumber", "9876543210", null],
  ["deposit326", "email", "Ana@Example.com", "Enter valid email"],
  ["deposit326", "postal_code", "", "Please enter postal code"],
  ["depositTransact", "amount", "1499", "Minimum 1500"],
  ["depositTransact", "phone", "987654321", "Enter valid phone"],
  ["scanAndPayConfirm", "txnId", "", "Please enter transaction id"],
  ["depositVenezuela", "amount", "", "Please enter amount"],
  ["depositVenezuela", "amount", "4", "Minimum 5"],
  ["depositVenezuela", "amount", "70001", "Maximum 70000"],
  ["depositVenezuela", "number", "", "Please enter DNI"],
  ["depositVenezuela", "number", "123456789", "Minimum 10"],
  ["depositVenezuela", "number", "12345678901", "Maximum 10"],
  ["depositVenezuela", "clientPhone", "123456", "Phone must be min 7 characters max 12 characters"],
  ["depositVenezuela", "bankCode", "visa", "Please select bank"],
  ["depositVenezuela", "bankCode", "bemovil", null],
  // Withdrawals
  ["withdrawFormA", "amount", "", "Please enter amount"],
  ["withdrawFormA", "amount", "999", "Minimum 1000 rupees"],
  ["withdrawFormA", "amount", "30001", "Maximum 30000 rupees"],
  ["withdrawFormA", "accountType", "Phonepe", "Please select type"],
  ["withdrawFormA", "accountType", "Paytm", null],
  ["withdrawFormA", "personalNumber", "", "Please enter UPI ID"],
  ["withdrawFormB", "name", "", "Enter valid name"],
  ["withdrawFormB", "cbu", "", "Please enter CBU"],
  ["withdrawFormB", "cbu", "12345678901234567890123", "Please Enter Max 22 characters"],
  ["withdrawFormB", "cbu", "1234 5678", "No space"],
  ["withdrawFormB", "alias", "", "Enter valid Alias name"],
  ["withdrawFormB", "phone", "", "Please enter phone Number"],
  ["withdrawFormB", "phone", "123456", "Phone must be min 7 characters max 12 characters"],
  ["withdrawFormB", "amount", "2999", "Minimum 3000"],
  ["withdrawFormB", "amount", "200001", "Maximum 200000"],
  ["withdrawFormB", "amount", "3000", null],
  ["withdrawBank", "amount", "249", "Minimum 250"],
  ["withdrawBank", "ifsc", "SBIN1001234", "Enter Valid IFSC Code"],
  ["withdrawBank", "ifsc", "SBIN0A12345", null],
  ["withdrawBank", "zip", "40000", "Enter valid zip"],
  ["withdrawBank", "zip", "400001-1234567", null],
  ["withdrawBank", "nameOnAccount", "Al", "Enter Valid Name On Account"],
  ["withdrawImps", "amount", "999", "Minimum 1000"],
  ["withdrawImps", "amount", "10001", "Maximum 10000"],
  ["withdrawTransact", "amount", "499", "Minimum 500"],
  // Contact
  ["contact", "firstName", "abc", "Username must be min 4 characters max 15 characters"],
  ["contact", "firstName", "ana maria", "Enter alphabets and numeric only"],
  ["contact", "email", "", "Please enter email"],
  ["contact", "email", "ana@", "Please enter valid email"],
  ["contact", "subject", "", "Please enter subject"],
  ["contact", "userQuestion", "", "Please enter message"],
];

describe("the spec's validation tables, field by field", () => {
  it.each(CASES)("%s.%s %j -> %s", (form, field, value, message) => {
    const rule = forms[form]?.[field];
    expect(rule, `${form}.${field} is in the contracts`).toBeDefined();
    expect(checkField(rule!, value)).toBe(message);
  });

  it.each([
    ["phone_pe", "299", "Minimum 300"],
    ["phone_pe", "50001", "Maximum 50000"],
    ["ScanNPay", "300", null],
    ["upi_s", "70001", "Maximum 70000"],
    ["upi_l", "99", "Minimum 100"],
  ])("paykassma %s amount %s -> %s", (payMethod, value, message) => {
    expect(checkField(limits[payMethod]!, value)).toBe(message);
  });

  it("checks a UPI address", () => {
    const rule = contractRules.paykassmaUpiAddress as unknown as FieldRule;
    expect(checkField(rule, "ana@upi")).toBeNull();
    expect(checkField(rule, "ana")).toBe("Enter valid UPI ID");
  });
});
