"""The validation rules of both spec documents, as data.

One `FieldRule` says everything about one field: what makes it valid and which
words the player sees when it is not. The same rule produces the `msgspec.Meta`
constraint on the contract types (so decoding enforces it), the field-level
messages the sandbox answers with, and the rules table exported to the SPA, so
that the browser, the gateway and the sandbox show the same words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec


class FieldRule(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Constraints of one field, each with the message the spec gives for it."""

    required: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    length_message: str | None = None
    min_length_message: str | None = None
    max_length_message: str | None = None
    pattern: str | None = None
    pattern_message: str | None = None
    minimum: float | None = None
    minimum_message: str | None = None
    maximum: float | None = None
    maximum_message: str | None = None
    one_of: tuple[str, ...] | None = None
    one_of_message: str | None = None
    must_be_true: bool = False
    hint: str | None = None

    def meta(self) -> msgspec.Meta:
        """The msgspec constraint for this rule (messages travel in the JSON Schema)."""
        extra = {"x-rule": msgspec.to_builtins(self)}
        if self.is_numeric:
            return msgspec.Meta(ge=self.minimum, le=self.maximum, extra_json_schema=extra)
        pattern = self.pattern
        if pattern is None and self.one_of:
            pattern = "^(" + "|".join(re.escape(v) for v in self.one_of) + ")$"
        return msgspec.Meta(
            min_length=self.min_length,
            max_length=self.max_length,
            pattern=pattern,
            extra_json_schema=extra,
        )

    @property
    def is_numeric(self) -> bool:
        return self.minimum is not None or self.maximum is not None

    def check(self, value: Any) -> str | None:
        """The first message that applies to `value`, or None when it is valid."""
        if self.must_be_true:
            return None if value is True else self.required
        if value is None or value == "":
            return self.required
        if isinstance(value, bool | dict | list):
            return self.pattern_message or self.required or "Invalid value"
        if self.is_numeric:
            return self._check_number(value)
        return self._check_text(str(value))

    def _check_text(self, text: str) -> str | None:
        if self.min_length is not None and len(text) < self.min_length:
            return self.min_length_message or self.length_message
        if self.max_length is not None and len(text) > self.max_length:
            return self.max_length_message or self.length_message
        if self.one_of is not None and text not in self.one_of:
            return self.one_of_message
        if self.pattern is not None and re.search(self.pattern, text) is None:
            return self.pattern_message
        return None

    def _check_number(self, value: Any) -> str | None:
        if self.pattern is not None and re.search(self.pattern, str(value)) is None:
            return self.pattern_message
        try:
            number = float(value)
        except (TypeError, ValueError):
            return self.pattern_message or self.required
        if self.minimum is not None and number < self.minimum:
            return self.minimum_message
        if self.maximum is not None and number > self.maximum:
            return self.maximum_message
        return None


FormRules = Mapping[str, FieldRule]


def validate(rules: FormRules, data: Mapping[str, Any]) -> dict[str, str]:
    """Field name -> message for every field of `data` that breaks its rule."""
    errors: dict[str, str] = {}
    for name, rule in rules.items():
        message = rule.check(data.get(name))
        if message is not None:
            errors[name] = message
    return errors


DEFAULT_ERROR = "some thing went wrong please contact admin"

ALNUM = r"^[A-Za-z0-9]+$"
NO_SPACE_ASCII = r"^[A-Za-z0-9]+$"
LETTERS_SPACES = r"^[A-Za-z ]+$"
# "Valid format" for e-mail is not spelled out; this is the usual HTML5-like shape.
EMAIL = r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$"
# The cashier spec: "email in lowercase pattern" for the India gateway.
EMAIL_LOWER = r"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$"
INDIAN_MOBILE = r"^[6-9][0-9]{9}$"
DIGITS = r"^[0-9]+$"

# --- Site shell and auth: the spec's validation tables -----------------------

USERNAME = FieldRule(
    required="Enter valid username",
    min_length=4,
    max_length=15,
    length_message="Username must be min 4 characters max 15 characters",
    pattern=ALNUM,
    pattern_message="Enter alphabets and numeric only",
    hint="Your Username should be 4-15 characters; Can contain letters and numbers only,with no accents or spaces",
)
PASSWORD = FieldRule(
    required="Enter valid password",
    min_length=6,
    max_length=15,
    length_message="Password must be min 6 characters max 15 characters",
    pattern=r"^\S+$",
    pattern_message="Enter alphabets and numeric only",
    hint="Your password should be 6-15 characters",
)
EMAIL_FIELD = FieldRule(required="Enter valid email", pattern=EMAIL, pattern_message="Enter valid email")
FIRST_NAME = FieldRule(
    min_length=2, max_length=16, length_message="First name must be min 2 characters max 16 characters"
)
LAST_NAME = FieldRule(max_length=16, length_message="Last name must be max 16 characters")
SSN = FieldRule(min_length=10, max_length=10, length_message="SSN must be exactly 10 characters")
ADDRESS = FieldRule(
    required="Enter valid address",
    min_length=5,
    max_length=25,
    length_message="Address must be min 5 characters max 25 characters",
)
PHONE = FieldRule(
    required="Enter valid phone",
    min_length=7,
    max_length=12,
    length_message="Phone must be min 7 characters max 12 characters",
    pattern=DIGITS,
    pattern_message="Enter valid phone",
)
ACCEPT_TERMS = FieldRule(required="Please agree the terms and conditions", must_be_true=True)

LOGIN_FORM: FormRules = {"login": USERNAME, "password": PASSWORD}
FORGOT_PASSWORD_FORM: FormRules = {"email": EMAIL_FIELD, "login": USERNAME}
# Register: optional fields are checked only when given (the spec: "if given").
REGISTER_FORM: FormRules = {
    "login": USERNAME,
    "password": PASSWORD,
    "email": EMAIL_FIELD,
}
REGISTER_OPTIONAL: FormRules = {"firstName": FIRST_NAME, "lastName": LAST_NAME, "ssn": SSN}
REGISTER_ADDRESS: FormRules = {"address": ADDRESS, "phone": PHONE}
REGISTER_TERMS: FormRules = {"acceptTerms": ACCEPT_TERMS}

# --- Account and cashier: the spec's validation tables ------------------------

PROFILE_UPDATE_FORM: FormRules = {
    "nickname": USERNAME,
    "email": EMAIL_FIELD,
    "firstName": FieldRule(required="Enter valid first name"),
    "lastName": FieldRule(required="Enter valid last name"),
    "city": FieldRule(required="Enter valid city"),
    "phone": FieldRule(required="Enter valid Phone", pattern=DIGITS, pattern_message="Enter valid Phone"),
    "country": FieldRule(required="Enter valid country"),
}

_NEW_PASSWORD_LENGTH = "Password must be min 6 characters max 15 characters"
PASSWORD_CHANGE_FORM: FormRules = {
    "oldPassword": FieldRule(
        required="Enter old password",
        min_length=6,
        max_length=15,
        length_message=_NEW_PASSWORD_LENGTH,
        pattern=NO_SPACE_ASCII,
        pattern_message="Enter alphabets and numeric only",
    ),
    "newPassword": FieldRule(
        required="Enter new password",
        min_length=6,
        max_length=15,
        length_message=_NEW_PASSWORD_LENGTH,
        pattern=NO_SPACE_ASCII,
        pattern_message="Enter alphabets and numeric only",
    ),
}
PASSWORD_CHANGE_MESSAGES = {
    "Invalid argument": "Invalid Old Password",
    "success": "Your password updated successfully. Please login with new password.",
}

BANK_ACCOUNT_FORM: FormRules = {
    "bankAccountNumber": FieldRule(
        required="Enter Bank Account Number!",
        pattern=r"^[0-9]{9,18}$",
        pattern_message="Enter Valid Account Number",
    ),
    "bankName": FieldRule(required="Enter Bank Name!", pattern=LETTERS_SPACES, pattern_message="Enter Valid Bank Name"),
    "accountBranchName": FieldRule(
        required="Enter Branch Name!", pattern=LETTERS_SPACES, pattern_message="Enter Valid Branch Name"
    ),
    "nameOnAccount": FieldRule(
        required="Enter Name On Account!",
        pattern=LETTERS_SPACES,
        pattern_message="Enter Valid Name On Account",
    ),
    "accountType": FieldRule(
        required="Enter Account Type!", pattern=LETTERS_SPACES, pattern_message="Enter Valid Account Type"
    ),
    "personalNumber": FieldRule(
        required="Enter IFSC Code!",
        pattern=r"^[A-Za-z]{4}[A-Za-z0-9]{7}$",
        pattern_message="Enter Valid IFSC Code",
    ),
}

# Deposits. Messages the spec does not give are written in the spec's own style.
DEPOSIT_326_FORM: FormRules = {
    "amount": FieldRule(
        required="Please enter amount",
        pattern=r"^[0-9]+$",
        pattern_message="Enter digits only",
        minimum=100,
        minimum_message="Minimum 100",
    ),
    "mobileNumber": FieldRule(required="Enter valid phone", pattern=INDIAN_MOBILE, pattern_message="Enter valid phone"),
    "email": FieldRule(required="Enter valid email", pattern=EMAIL_LOWER, pattern_message="Enter valid email"),
    "city": FieldRule(required="Please enter city"),
    "street": FieldRule(required="Please enter street"),
    "postal_code": FieldRule(required="Please enter postal code"),
}
DEPOSIT_326_UPI = FieldRule(required="Please enter UPI number")
DEPOSIT_TRANSACT_FORM: FormRules = {
    "amount": FieldRule(required="Please enter amount", minimum=1500, minimum_message="Minimum 1500"),
    "email": EMAIL_FIELD,
    "phone": FieldRule(required="Enter valid phone", pattern=INDIAN_MOBILE, pattern_message="Enter valid phone"),
}
SCAN_AND_PAY_CONFIRM_FORM: FormRules = {"txnId": FieldRule(required="Please enter transaction id")}
UPI_ADDRESS = r"^[A-Za-z0-9.\-_]{2,256}@[A-Za-z]{2,64}$"


def _amount_range(low: int, high: int) -> FieldRule:
    return FieldRule(
        required="Please enter amount",
        minimum=low,
        minimum_message=f"Minimum {low}",
        maximum=high,
        maximum_message=f"Maximum {high}",
    )


# Method 328 (paykassma-type): limits by payMethod.
PAYKASSMA_DEPOSIT_LIMITS: Mapping[str, FieldRule] = {
    "phone_pe": _amount_range(300, 50000),
    "paytm": _amount_range(300, 50000),
    "ScanNPay": _amount_range(300, 50000),
    "upi_s": _amount_range(300, 70000),  # UPI_NEW
    "upi_l": _amount_range(100, 50000),  # UPI (long), plus the UPI address pattern
}
PAYKASSMA_UPI_ADDRESS = FieldRule(
    required="Please enter UPI ID", pattern=UPI_ADDRESS, pattern_message="Enter valid UPI ID"
)
VENEZUELA_DEPOSIT_FORM: FormRules = {
    "amount": _amount_range(5, 70000),
    "number": FieldRule(
        required="Please enter DNI",
        min_length=10,
        max_length=10,
        min_length_message="Minimum 10",
        max_length_message="Maximum 10",
    ),
    "clientPhone": FieldRule(
        required="Enter valid phone",
        min_length=7,
        max_length=12,
        length_message="Phone must be min 7 characters max 12 characters",
        pattern=DIGITS,
        pattern_message="Enter valid phone",
    ),
    "bankCode": FieldRule(
        required="Please select bank",
        one_of=("payphone", "prometeo", "broadnet", "bemovil"),
        one_of_message="Please select bank",
    ),
}
# Method 300: "Limits for method 300: not shown". Chosen: amount 100-100000.
DEPOSIT_300_FORM: FormRules = {"amount": _amount_range(100, 100000)}

# Withdrawals.
WITHDRAW_BANK_FORM: FormRules = {
    "amount": FieldRule(
        required="Please enter amount",
        pattern=DIGITS,
        pattern_message="Enter digits only",
        minimum=250,
        minimum_message="Minimum 250",
    ),
    "ifsc": FieldRule(
        required="Enter IFSC Code!",
        pattern=r"^[A-Za-z]{4}0[A-Za-z0-9]{6}$",
        pattern_message="Enter Valid IFSC Code",
    ),
    "personalNumber": FieldRule(
        required="Enter Bank Account Number!",
        pattern=r"^[0-9]{9,18}$",
        pattern_message="Enter Valid Account Number",
    ),
    "bankName": FieldRule(
        required="Enter Bank Name!", pattern=r"^[A-Za-z ]+$", pattern_message="Enter Valid Bank Name"
    ),
    "nameOnAccount": FieldRule(
        required="Enter Name On Account!",
        pattern=r"^[A-Za-z ]{3,}$",
        pattern_message="Enter Valid Name On Account",
    ),
    "city": FieldRule(required="Enter city", pattern=r"^[A-Za-z ]{3,}$", pattern_message="Enter valid city"),
    "state": FieldRule(required="Enter state", pattern=r"^[A-Za-z ]{3,}$", pattern_message="Enter valid state"),
    "zip": FieldRule(required="Enter zip", pattern=r"^[0-9]{6}(-[0-9]{7})?$", pattern_message="Enter valid zip"),
    "phone": FieldRule(required="Enter valid phone", pattern=INDIAN_MOBILE, pattern_message="Enter valid phone"),
}
WITHDRAW_FORM_A: FormRules = {
    "amount": FieldRule(
        required="Please enter amount",
        minimum=1000,
        minimum_message="Minimum 1000 rupees",
        maximum=30000,
        maximum_message="Maximum 30000 rupees",
    ),
    # Only Paytm is selectable; Phonepe and UPI are shown disabled.
    "accountType": FieldRule(required="Please select type", one_of=("Paytm",), one_of_message="Please select type"),
    "personalNumber": FieldRule(required="Please enter UPI ID"),
}
WITHDRAW_TRANSACT_FORM: FormRules = {
    "amount": FieldRule(required="Please enter amount", minimum=500, minimum_message="Minimum 500")
}
WITHDRAW_IMPS_FORM: FormRules = {"amount": _amount_range(1000, 10000)}
# The CUIT's first two digits (person 20, 23, 24, 27; company 30, 33, 34): AFIP's prefixes.
CUIT_PREFIXES = ("20", "23", "24", "27", "30", "33", "34")
# Form B: the "history screen reading" (3000-200000) is used because it carries its own messages.
WITHDRAW_FORM_B: FormRules = {
    "name": FieldRule(required="Enter valid name"),
    "cbu": FieldRule(
        required="Please enter CBU",
        max_length=22,
        max_length_message="Please Enter Max 22 characters",
        pattern=r"^\S+$",
        pattern_message="No space",
    ),
    "alias": FieldRule(required="Enter valid Alias name"),
    "phone": FieldRule(
        required="Please enter phone Number",
        min_length=7,
        max_length=12,
        length_message="Phone must be min 7 characters max 12 characters",
        pattern=DIGITS,
        pattern_message="No space",
    ),
    "amount": _amount_range(3000, 200000),
    # The CUIT is the prefix chosen from CUIT_PREFIXES plus the 9 digits the player types; the
    # "earlier reading" gives "cuit 9 digits" and does not list it as required: checked when given.
    "cuitPrefix": FieldRule(one_of=CUIT_PREFIXES, one_of_message="Please select CUIT prefix"),
    "cuit": FieldRule(
        min_length=9,
        max_length=9,
        length_message="CUIT must be 9 digits",
        pattern=r"^[0-9]{9}$",
        pattern_message="CUIT must be 9 digits",
    ),
}
INSUFFICIENT_BALANCE = "You don’t have enough Amount"
BALANCE_CHECK_FROM = 25

CONTACT_FORM: FormRules = {
    "firstName": USERNAME,
    "email": FieldRule(required="Please enter email", pattern=EMAIL, pattern_message="Please enter valid email"),
    "subject": FieldRule(required="Please enter subject"),
    "userQuestion": FieldRule(required="Please enter message"),
}

HISTORY_MESSAGES = {
    "startRequired": "Select start date",
    "endRequired": "Select end date",
    "transactionDates": "Dates can't exceed today, start date should be below or equal to end date",
    "gameDates": "Dates can not exceed today",
    "noType": "Please select any option of the above",
}

WITHDRAW_FORMS: Mapping[str, FormRules] = {
    "bank": WITHDRAW_BANK_FORM,
    "paykassma": WITHDRAW_FORM_A,
    "transact": WITHDRAW_TRANSACT_FORM,
    "imps": WITHDRAW_IMPS_FORM,
    "mercado": WITHDRAW_FORM_B,
}

ALL_FORMS: Mapping[str, FormRules] = {
    "login": LOGIN_FORM,
    "forgotPassword": FORGOT_PASSWORD_FORM,
    "register": {**REGISTER_FORM, **REGISTER_OPTIONAL, **REGISTER_ADDRESS, **REGISTER_TERMS},
    "profileUpdate": PROFILE_UPDATE_FORM,
    "passwordChange": PASSWORD_CHANGE_FORM,
    "bankAccount": BANK_ACCOUNT_FORM,
    "deposit326": DEPOSIT_326_FORM,
    "depositTransact": DEPOSIT_TRANSACT_FORM,
    "scanAndPayConfirm": SCAN_AND_PAY_CONFIRM_FORM,
    "depositVenezuela": VENEZUELA_DEPOSIT_FORM,
    "deposit300": DEPOSIT_300_FORM,
    "withdrawBank": WITHDRAW_BANK_FORM,
    "withdrawFormA": WITHDRAW_FORM_A,
    "withdrawTransact": WITHDRAW_TRANSACT_FORM,
    "withdrawImps": WITHDRAW_IMPS_FORM,
    "withdrawFormB": WITHDRAW_FORM_B,
    "contact": CONTACT_FORM,
}
