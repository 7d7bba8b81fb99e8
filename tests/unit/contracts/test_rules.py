"""The validation rules: each bad value gets the spec's words, each good value passes."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from contracts import cashier, player, rules


@pytest.mark.parametrize(
    ("form", "field", "value", "message"),
    [
        (rules.LOGIN_FORM, "login", "", "Enter valid username"),
        (rules.LOGIN_FORM, "login", "abc", "Username must be min 4 characters max 15 characters"),
        (rules.LOGIN_FORM, "login", "a" * 16, "Username must be min 4 characters max 15 characters"),
        (rules.LOGIN_FORM, "login", "josé1", "Enter alphabets and numeric only"),
        (rules.LOGIN_FORM, "login", "with space", "Enter alphabets and numeric only"),
        (rules.LOGIN_FORM, "password", "", "Enter valid password"),
        (rules.LOGIN_FORM, "password", "12345", "Password must be min 6 characters max 15 characters"),
        (rules.LOGIN_FORM, "password", "has space1", "Enter alphabets and numeric only"),
        (rules.FORGOT_PASSWORD_FORM, "email", "not-an-email", "Enter valid email"),
        (rules.REGISTER_TERMS, "acceptTerms", False, "Please agree the terms and conditions"),
        (rules.REGISTER_OPTIONAL, "ssn", "123", "SSN must be exactly 10 characters"),
        (rules.REGISTER_ADDRESS, "address", "abc", "Address must be min 5 characters max 25 characters"),
        (rules.REGISTER_ADDRESS, "phone", "123456", "Phone must be min 7 characters max 12 characters"),
        (rules.PASSWORD_CHANGE_FORM, "oldPassword", "", "Enter old password"),
        (rules.PASSWORD_CHANGE_FORM, "newPassword", "", "Enter new password"),
        (rules.PASSWORD_CHANGE_FORM, "newPassword", "abc", "Password must be min 6 characters max 15 characters"),
        (rules.PASSWORD_CHANGE_FORM, "newPassword", "abc de!", "Enter alphabets and numeric only"),
        (rules.BANK_ACCOUNT_FORM, "bankAccountNumber", "", "Enter Bank Account Number!"),
        (rules.BANK_ACCOUNT_FORM, "bankAccountNumber", "12345678", "Enter Valid Account Number"),
        (rules.BANK_ACCOUNT_FORM, "bankName", "Bank 1", "Enter Valid Bank Name"),
        (rules.BANK_ACCOUNT_FORM, "personalNumber", "SBI0001234", "Enter Valid IFSC Code"),
        (rules.BANK_ACCOUNT_FORM, "personalNumber", "", "Enter IFSC Code!"),
        (rules.VENEZUELA_DEPOSIT_FORM, "amount", "", "Please enter amount"),
        (rules.VENEZUELA_DEPOSIT_FORM, "amount", 4, "Minimum 5"),
        (rules.VENEZUELA_DEPOSIT_FORM, "amount", 70001, "Maximum 70000"),
        (rules.VENEZUELA_DEPOSIT_FORM, "number", "", "Please enter DNI"),
        (rules.VENEZUELA_DEPOSIT_FORM, "number", "123", "Minimum 10"),
        (rules.VENEZUELA_DEPOSIT_FORM, "number", "12345678901", "Maximum 10"),
        (rules.VENEZUELA_DEPOSIT_FORM, "clientPhone", "123", "Phone must be min 7 characters max 12 characters"),
        (rules.WITHDRAW_FORM_A, "amount", 999, "Minimum 1000 rupees"),
        (rules.WITHDRAW_FORM_A, "amount", 30001, "Maximum 30000 rupees"),
        (rules.WITHDRAW_FORM_A, "accountType", "", "Please select type"),
        (rules.WITHDRAW_FORM_A, "accountType", "UPI", "Please select type"),
        (rules.WITHDRAW_FORM_A, "personalNumber", "", "Please enter UPI ID"),
        (rules.WITHDRAW_FORM_B, "name", "", "Enter valid name"),
        (rules.WITHDRAW_FORM_B, "cbu", "", "Please enter CBU"),
        (rules.WITHDRAW_FORM_B, "cbu", "1" * 23, "Please Enter Max 22 characters"),
        (rules.WITHDRAW_FORM_B, "cbu", "12 34", "No space"),
        (rules.WITHDRAW_FORM_B, "alias", "", "Enter valid Alias name"),
        (rules.WITHDRAW_FORM_B, "phone", "", "Please enter phone Number"),
        (rules.WITHDRAW_FORM_B, "phone", "123", "Phone must be min 7 characters max 12 characters"),
        (rules.WITHDRAW_FORM_B, "amount", 2999, "Minimum 3000"),
        (rules.WITHDRAW_FORM_B, "amount", 200001, "Maximum 200000"),
        (rules.CONTACT_FORM, "email", "", "Please enter email"),
        (rules.CONTACT_FORM, "email", "nope", "Please enter valid email"),
        (rules.DEPOSIT_326_FORM, "amount", 99, "Minimum 100"),
        (rules.DEPOSIT_326_FORM, "mobileNumber", "5123456789", "Enter valid phone"),
        (rules.DEPOSIT_TRANSACT_FORM, "amount", 1499, "Minimum 1500"),
        (rules.WITHDRAW_BANK_FORM, "amount", 249, "Minimum 250"),
        (rules.WITHDRAW_BANK_FORM, "ifsc", "SBIN1234567", "Enter Valid IFSC Code"),
        (rules.WITHDRAW_IMPS_FORM, "amount", 10001, "Maximum 10000"),
        (rules.WITHDRAW_TRANSACT_FORM, "amount", 499, "Minimum 500"),
    ],
)
def test_a_bad_value_gets_the_spec_message(form: rules.FormRules, field: str, value: Any, message: str) -> None:
    assert rules.validate({field: form[field]}, {field: value}) == {field: message}


@pytest.mark.parametrize(
    ("form", "data"),
    [
        (rules.LOGIN_FORM, {"login": "demo1", "password": "demo123"}),
        (
            rules.BANK_ACCOUNT_FORM,
            {
                "bankAccountNumber": "123456789012",
                "bankName": "State Bank",
                "accountBranchName": "Main",
                "nameOnAccount": "Lucia Gomez",
                "accountType": "Savings",
                "personalNumber": "SBIN0001234",
            },
        ),
        (
            rules.WITHDRAW_FORM_B,
            {
                "name": "Lucia",
                "cbu": "0110599520000001234567",
                "alias": "lucia.mp",
                "phone": "1123456789",
                "amount": 3000,
            },
        ),
        (
            rules.VENEZUELA_DEPOSIT_FORM,
            {"amount": 5, "number": "V123456789", "clientPhone": "04121234567", "bankCode": "prometeo"},
        ),
    ],
)
def test_good_forms_pass(form: rules.FormRules, data: dict[str, Any]) -> None:
    assert rules.validate(form, data) == {}


def test_the_contract_types_enforce_the_same_rules() -> None:
    with pytest.raises(msgspec.ValidationError, match="login"):
        msgspec.convert({"login": "abc", "password": "secret1"}, player.LoginRequest)
    with pytest.raises(msgspec.ValidationError, match="amount"):
        msgspec.convert(
            {"firstName": "L", "alias": "a", "cbu": "1", "mobileNumber": "1234567", "amount": 10}, cashier.WithdrawFormB
        )
    ok = msgspec.convert({"login": "demo1", "password": "demo123"}, player.LoginRequest)
    assert ok.login == "demo1"


def test_rules_travel_in_the_json_schema_with_their_messages() -> None:
    schema = msgspec.json.schema(player.LoginRequest)
    login = schema["$defs"]["LoginRequest"]["properties"]["login"]
    assert login["x-rule"]["length_message"] == "Username must be min 4 characters max 15 characters"
    assert login["minLength"] == 4
