"""Cashier (/api/cashier): deposits and their approval, withdrawals, bank accounts, payment systems."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from contracts.cashier import STATUS_APPROVED, STATUS_STARTED
from sandbox.app import SandboxSettings
from sandbox.cashier import payment_page
from tests.support.platform import BANK_WITHDRAW, CARD_DEPOSIT, PlatformClient, sandbox_client

CASHIER = "/api/cashier"
INSUFFICIENT = "You don’t have enough Amount"
INDIA = {**CARD_DEPOSIT, "city": "Delhi", "street": "MG Road 1", "postal_code": "110001"}
PAYKASSMA = {
    "paymentMethod": 328,
    "paymentType": "deposit",
    "currency": "INR",
    "amount": 1000,
    "payMethod": "paytm",
    "userName": "demo1",
    "phoneNumber": "9123456789",
    "address": "MG Road 1",
    "emailId": "demo1@example.com",
}
TRANSACT = {
    "paymentMethod": 329,
    "paymentType": "deposit",
    "currency": "INR",
    "amount": 1500,
    "email": "demo1@example.com",
    "phone": "9123456789",
}
VENEZUELA = {
    "paymentMethod": 332,
    "paymentType": "deposit",
    "currency": "VES",
    "amount": 500,
    "bankCode": "payphone",
    "number": "V123456789",
    "clientPhone": "04121234567",
    "userName": "demo1",
}
METHOD_300 = {"paymentMethod": 300, "paymentType": "deposit", "currency": "INR", "amount": 1000}
FORM_A = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo1@paytm"}
FORM_B = {
    "firstName": "Lucia",
    "alias": "lucia.mp",
    "cbu": "0110599520000001234567",
    "mobileNumber": "1123456789",
    "amount": 3000,
}
BANK_ACCOUNT = {
    "bankAccountNumber": "123456789012",
    "bankName": "State Bank",
    "accountBranchName": "Main",
    "nameOnAccount": "Lucia Gomez",
    "accountType": "Savings",
    "personalNumber": "SBIN0001234",
}


@pytest.fixture(scope="module")
def unchanged() -> Iterator[PlatformClient]:
    """demo1 on one sandbox for the whole module: for refusals, which must change nothing."""
    with sandbox_client(SandboxSettings(deposit_approval_delay_s=0.2)) as client:
        shared = PlatformClient(client)
        shared.login()
        yield shared


def call(client: PlatformClient, name: str, body: Any = None, **query: str) -> dict[str, Any]:
    response = client.post(f"{CASHIER}/{name}", {} if body is None else body, params=query)
    assert response.status_code == 200, response.text
    return dict(response.json())


def cash(client: PlatformClient, login: str = "demo1") -> str:
    """The main wallet's cash as the control API reads it (no settling)."""
    return str(client.client.get(f"/_sandbox/sites/aurora/players/{login}").json()["wallets"]["INR"]["cash"])


def ledger(client: PlatformClient, reference: str) -> list[dict[str, Any]]:
    return [e for e in client.client.get("/_sandbox/sites/aurora/ledger").json() if e["reference"] == reference]


def status(client: PlatformClient, seque_no: str) -> str:
    reply = call(client, "depositCallBackStatus", {"sid": seque_no})
    assert reply["success"], reply
    return str(reply["status"])


def local(url: str) -> str:
    """An absolute sandbox address as the test client calls it."""
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


def refused(reply: dict[str, Any], message: str) -> None:
    assert reply["success"] is False, reply
    assert reply["description"] == message, reply


# --- Deposits: limits per method -----------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({**INDIA, "amount": 99}, "Minimum 100"),
        ({**INDIA, "amount": "10a"}, "Enter digits only"),
        ({**INDIA, "mobileNumber": "5123456789"}, "Enter valid phone"),
        ({**INDIA, "email": "Demo1@Example.com"}, "Enter valid email"),
        ({**INDIA, "postal_code": ""}, "Please enter postal code"),
        ({**INDIA, "type": "UPI"}, "Please enter UPI number"),
        ({**PAYKASSMA, "payMethod": "bitcoin"}, "Please select payment method"),
        ({**PAYKASSMA, "amount": 299}, "Minimum 300"),
        ({**PAYKASSMA, "payMethod": "phone_pe", "amount": 50001}, "Maximum 50000"),
        ({**PAYKASSMA, "payMethod": "ScanNPay", "amount": 50001}, "Maximum 50000"),
        ({**PAYKASSMA, "payMethod": "upi_s", "amount": 70001}, "Maximum 70000"),
        ({**PAYKASSMA, "payMethod": "upi_s", "amount": 299}, "Minimum 300"),
        ({**PAYKASSMA, "payMethod": "upi_l", "amount": 99, "upi_no": "demo1@okaxis"}, "Minimum 100"),
        ({**PAYKASSMA, "payMethod": "upi_l", "amount": 50001, "upi_no": "demo1@okaxis"}, "Maximum 50000"),
        ({**PAYKASSMA, "payMethod": "upi_l"}, "Please enter UPI ID"),
        ({**PAYKASSMA, "payMethod": "upi_l", "upi_no": "not an address"}, "Enter valid UPI ID"),
        ({**TRANSACT, "amount": 1499}, "Minimum 1500"),
        ({**TRANSACT, "phone": "912345678"}, "Enter valid phone"),
        ({**VENEZUELA, "amount": 4}, "Minimum 5"),
        ({**VENEZUELA, "amount": 70001}, "Maximum 70000"),
        ({**VENEZUELA, "amount": None}, "Please enter amount"),
        ({**VENEZUELA, "number": "V12345678"}, "Minimum 10"),
        ({**VENEZUELA, "number": "V1234567890"}, "Maximum 10"),
        ({**VENEZUELA, "number": ""}, "Please enter DNI"),
        ({**VENEZUELA, "clientPhone": "123456"}, "Phone must be min 7 characters max 12 characters"),
        ({**VENEZUELA, "clientPhone": "04121-34567"}, "Enter valid phone"),
        ({**VENEZUELA, "bankCode": "chase"}, "Please select bank"),
        ({**METHOD_300, "amount": 99}, "Minimum 100"),
        ({**METHOD_300, "amount": 100001}, "Maximum 100000"),
    ],
)
def test_a_deposit_outside_its_method_rules_is_refused_with_the_spec_message(
    unchanged: PlatformClient, body: dict[str, Any], message: str
) -> None:
    refused(call(unchanged, "buy", body), message)
    assert cash(unchanged) == "5000.00"


@pytest.mark.parametrize(
    ("body", "shape"),
    [
        (INDIA, "form"),
        ({**INDIA, "type": "UPI", "upi_no": "9123456789"}, "form"),
        (PAYKASSMA, "redirectUrl"),
        ({**PAYKASSMA, "payMethod": "upi_l", "upi_no": "demo1@okaxis"}, "redirectUrl"),
        ({**PAYKASSMA, "payMethod": "ScanNPay"}, "externalLink"),
        (TRANSACT, "redirectUrl"),
        (VENEZUELA, "redirectUrl"),
        (METHOD_300, "redirectUrl"),
    ],
)
def test_each_deposit_method_answers_a_sequence_number_and_where_to_pay(
    player: PlatformClient, body: dict[str, Any], shape: str
) -> None:
    reply = call(player, "buy", body)
    assert reply["success"] is True, reply
    seque_no = reply["seque_no"]
    assert seque_no.startswith("SEQ")
    url = reply["result"]["form"]["url"] if shape == "form" else reply["result"][shape]
    assert f"/_sandbox/pay/{seque_no}?" in url
    assert url.startswith("http")
    assert status(player, seque_no) == STATUS_STARTED


@pytest.fixture
def pay_pages() -> Any:
    """The provider's payment page on its own (app.py mounts it next to the platform's routes)."""
    with TestClient(app=Litestar(route_handlers=[payment_page])) as client:
        yield client


def test_the_india_gateway_posts_a_form_and_the_payment_page_answers_it(
    player: PlatformClient, pay_pages: TestClient[Any]
) -> None:
    form = call(player, "buy", INDIA)["result"]["form"]
    assert form["method"] == "POST"
    assert form["params"]["amount"] == "1000.00"
    page = pay_pages.post(local(form["url"]), data=form["params"])
    assert page.status_code == 200
    assert "India gateway" in page.text and "1000.00 INR" in page.text


def test_scan_and_pay_links_a_qr_page(player: PlatformClient, pay_pages: TestClient[Any]) -> None:
    link = call(player, "Mbuy", {**PAYKASSMA, "payMethod": "ScanNPay"})["result"]["externalLink"]
    page = pay_pages.get(local(link))
    assert page.status_code == 200
    assert "<svg" in page.text and "Scan and Pay" in page.text


def test_the_sandbox_itself_serves_the_page_a_deposit_redirects_to(player: PlatformClient) -> None:
    """The redirect's page on the sandbox's own app, not one mounted by the test: it was never
    mounted, and browsers sent to pay met a 404 (issue 35's nginx profile found it)."""
    url = call(player, "buy", PAYKASSMA)["result"]["redirectUrl"]
    page = player.client.get(local(url))
    assert page.status_code == 200, page.text
    assert "Paytm" in page.text and "1000.00 INR" in page.text


def test_an_unknown_deposit_method_is_refused(player: PlatformClient) -> None:
    assert call(player, "buy", {**METHOD_300, "paymentMethod": 999})["success"] is False


def test_an_account_without_deposits_cannot_deposit(platform: PlatformClient) -> None:
    platform.login("nocash", "nocash123")
    before = platform.client.get("/_sandbox/sites/aurora/players/nocash").json()["deposits"]
    assert call(platform, "buy", METHOD_300)["success"] is False
    assert platform.client.get("/_sandbox/sites/aurora/players/nocash").json()["deposits"] == before


# --- Deposits: the provider's status --------------------------------------------------------


def test_a_deposit_is_started_then_approved_after_the_delay_and_credited_once(player: PlatformClient) -> None:
    seque_no = call(player, "buy", INDIA)["seque_no"]
    assert status(player, seque_no) == STATUS_STARTED
    assert cash(player) == "5000.00"
    time.sleep(0.25)
    assert status(player, seque_no) == STATUS_APPROVED
    assert status(player, seque_no) == STATUS_APPROVED
    assert cash(player) == "6000.00"
    assert ledger(player, seque_no) == [
        {"login": "demo1", "kind": "deposit", "amount": "1000.00", "balanceAfter": "6000.00", "reference": seque_no}
    ]


def test_an_approved_deposit_is_credited_by_the_next_cashier_call_without_polling(player: PlatformClient) -> None:
    seque_no = call(player, "Mbuy", TRANSACT)["seque_no"]
    time.sleep(0.25)
    assert cash(player) == "5000.00"
    assert call(player, "getOpenWithdrawRequests")["success"]
    assert cash(player) == "6500.00"
    assert len(ledger(player, seque_no)) == 1


def test_the_status_of_an_unknown_deposit_is_refused(player: PlatformClient) -> None:
    assert call(player, "depositCallBackStatus", {"sid": "SEQ0"})["success"] is False


def test_scan_and_pay_waits_for_the_transaction_id_then_approves(player: PlatformClient) -> None:
    seque_no = call(player, "buy", {**PAYKASSMA, "payMethod": "ScanNPay", "amount": 500})["seque_no"]
    time.sleep(0.25)
    assert status(player, seque_no) == STATUS_STARTED
    refused(call(player, "depositCallBack", {"seque_no": seque_no, "txnId": ""}), "Please enter transaction id")
    unknown = call(player, "depositCallBack", {"seque_no": "SEQ0", "txnId": "UTR123"})
    assert unknown["status"] == "failure"
    confirmed = call(player, "depositCallBack", {"seque_no": seque_no, "txnId": "UTR123"})
    assert confirmed["success"] is True and confirmed["status"] != "failure"
    assert status(player, seque_no) == STATUS_STARTED
    time.sleep(0.25)
    detail = call(player, "mercadoDepositCallBack", {"sid": seque_no})
    assert detail["status"] == STATUS_APPROVED
    assert cash(player) == "5500.00"


def test_a_payment_redirect_points_at_an_existing_deposit(player: PlatformClient) -> None:
    seque_no = call(player, "buy", {**PAYKASSMA, "payMethod": "upi_s"})["seque_no"]
    redirect = call(player, "paymentRedirect", {"seque_no": seque_no, "payMethod": "upi_s"})
    assert redirect["seque_no"] == seque_no and redirect["payMethod"] == "upi_s"
    assert f"/_sandbox/pay/{seque_no}?" in redirect["redirectUrl"]
    assert call(player, "paymentRedirect", {"seque_no": "SEQ0", "payMethod": "upi_s"})["success"] is False


# --- Withdrawals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("route", "body", "message"),
    [
        ("cashout12", {**FORM_A, "amount": 999}, "Minimum 1000 rupees"),
        ("cashout12", {**FORM_A, "amount": 30001}, "Maximum 30000 rupees"),
        ("cashout12", {**FORM_A, "amount": None}, "Please enter amount"),
        ("cashout12", {**FORM_A, "accountType": "Phonepe"}, "Please select type"),
        ("cashout12", {**FORM_A, "personalNumber": ""}, "Please enter UPI ID"),
        ("mercadoCashout", {**FORM_B, "amount": 2999}, "Minimum 3000"),
        ("mercadoCashout", {**FORM_B, "amount": 200001}, "Maximum 200000"),
        ("mercadoCashout", {**FORM_B, "firstName": ""}, "Enter valid name"),
        ("mercadoCashout", {**FORM_B, "alias": ""}, "Enter valid Alias name"),
        ("mercadoCashout", {**FORM_B, "cbu": ""}, "Please enter CBU"),
        ("mercadoCashout", {**FORM_B, "cbu": "0" * 23}, "Please Enter Max 22 characters"),
        ("mercadoCashout", {**FORM_B, "cbu": "0110 5995"}, "No space"),
        ("mercadoCashout", {**FORM_B, "mobileNumber": ""}, "Please enter phone Number"),
        ("mercadoCashout", {**FORM_B, "mobileNumber": "123456"}, "Phone must be min 7 characters max 12 characters"),
        ("mercadoCashout", {**FORM_B, "cuitPrefix": "20", "cuit": "12345678"}, "CUIT must be 9 digits"),
        ("mercadoCashout", {**FORM_B, "cuitPrefix": "20", "cuit": "12345678A"}, "CUIT must be 9 digits"),
        ("mercadoCashout", {**FORM_B, "cuitPrefix": "99", "cuit": "123456789"}, "Please select CUIT prefix"),
        ("interKassaCashout", {**BANK_WITHDRAW, "amount": 249}, "Minimum 250"),
        ("interKassaCashout", {**BANK_WITHDRAW, "ifsc": "SBIN1123456"}, "Enter Valid IFSC Code"),
        ("interKassaCashout", {**BANK_WITHDRAW, "personalNumber": "12345678"}, "Enter Valid Account Number"),
        ("interKassaCashout", {**BANK_WITHDRAW, "zip": "11000"}, "Enter valid zip"),
        ("cashout", {"paymentMethod": "imps", "amount": 999}, "Minimum 1000"),
        ("cashout", {"paymentMethod": "imps", "amount": 10001}, "Maximum 10000"),
        ("cashout", {"paymentMethod": "transact", "amount": 499}, "Minimum 500"),
    ],
)
def test_a_withdrawal_outside_its_form_rules_is_refused_with_the_spec_message(
    unchanged: PlatformClient, route: str, body: dict[str, Any], message: str
) -> None:
    refused(call(unchanged, route, body), message)
    assert cash(unchanged) == "5000.00"
    assert call(unchanged, "getOpenWithdrawRequests")["withdrawsResponses"] == []


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("cashout12", FORM_A),
        ("mercadoCashout", FORM_B),
        ("interKassaCashout", BANK_WITHDRAW),
        ("mercadoCashout", {**FORM_B, "cuitPrefix": "27", "cuit": "123456789"}),
        ("cashout", {"paymentMethod": "imps", "amount": 1000}),
        ("cashout", {"paymentMethod": "transact", "amount": 500}),
    ],
)
def test_a_valid_withdrawal_holds_the_amount_at_once(player: PlatformClient, route: str, body: dict[str, Any]) -> None:
    reply = call(player, route, body)
    assert reply["success"] is True
    assert reply["description"] == "Withdrawal Succesfull"
    assert reply["result"]["success"] is True
    assert cash(player) == f"{5000 - body['amount']}.00"
    assert ledger(player, reply["cashoutId"])[0]["kind"] == "cashout"


def test_a_withdrawal_above_the_cash_is_refused_and_the_cash_is_unchanged(player: PlatformClient) -> None:
    reply = call(player, "cashout12", {**FORM_A, "amount": 5001})
    assert reply["success"] is False
    assert reply["description"] == INSUFFICIENT
    assert reply["result"] == {"success": False, "errorMsg": INSUFFICIENT}
    refused(call(player, "mercadoCashout", {**FORM_B, "amount": 5000.01}), INSUFFICIENT)
    assert cash(player) == "5000.00"


def test_the_whole_cash_can_be_withdrawn_but_never_more(player: PlatformClient) -> None:
    assert call(player, "cashout", {"paymentMethod": "transact", "amount": 5000})["success"] is True
    refused(call(player, "cashout", {"paymentMethod": "transact", "amount": 500}), INSUFFICIENT)
    assert cash(player) == "0.00"


def test_withdraw_list_cancel_restores_the_cash_once(player: PlatformClient) -> None:
    cashout_id = call(player, "cashout", {"paymentMethod": "imps", "amount": 1200})["cashoutId"]
    assert cash(player) == "3800.00"
    open_requests = call(player, "getOpenWithdrawRequests")["withdrawsResponses"]
    assert [(w["refTxnID"], w["amount"], w["status"], w["currency"]) for w in open_requests] == [
        (cashout_id, 1200.0, "Pending", "INR")
    ]
    assert open_requests[0]["creationDate"].endswith("Z")
    assert call(player, "cancelWithdrawRequest", {"cashoutId": cashout_id})["success"] is True
    assert cash(player) == "5000.00"
    assert call(player, "getOpenWithdrawRequests")["withdrawsResponses"] == []
    assert call(player, "cancelWithdrawRequest", {"cashoutId": cashout_id})["success"] is False
    assert cash(player) == "5000.00"
    assert [(e["kind"], e["amount"], e["balanceAfter"]) for e in ledger(player, cashout_id)] == [
        ("cashout", "-1200.00", "3800.00"),
        ("cashout-cancel", "1200.00", "5000.00"),
    ]


def test_seeded_cashouts_that_are_not_pending_cannot_be_cancelled(player: PlatformClient) -> None:
    summary = player.client.get("/_sandbox/sites/aurora/players/demo1").json()
    for seeded in summary["cashouts"]:
        assert call(player, "cancelWithdrawRequest", {"cashoutId": seeded["cashoutId"]})["success"] is False
    assert cash(player) == "5000.00"


def test_the_ledger_adds_up_to_the_cash(player: PlatformClient) -> None:
    call(player, "buy", METHOD_300)
    cashout_id = call(player, "cashout12", FORM_A)["cashoutId"]
    call(player, "interKassaCashout", BANK_WITHDRAW)
    call(player, "cancelWithdrawRequest", {"cashoutId": cashout_id})
    time.sleep(0.25)
    call(player, "getBankAccounts")
    entries = [e for e in player.client.get("/_sandbox/sites/aurora/ledger").json() if e["login"] == "demo1"]
    total = sum(float(e["amount"]) for e in entries)
    assert [e["kind"] for e in entries] == ["cashout", "cashout", "cashout-cancel", "deposit"]
    assert 5000 + total == float(cash(player)) == float(entries[-1]["balanceAfter"]) == 5750.0


def test_an_account_without_withdrawals_cannot_withdraw(platform: PlatformClient) -> None:
    platform.login("nocash", "nocash123")
    assert call(platform, "cashout", {"paymentMethod": "transact", "amount": 500})["success"] is False


# --- Bank accounts --------------------------------------------------------------------------


def test_bank_accounts_are_added_listed_masked_and_deleted(player: PlatformClient) -> None:
    empty = call(player, "getBankAccounts")
    assert empty["success"] is True
    assert empty["bankAccountInfos"] == [] and empty["description"] == "no bank account details"
    refused(call(player, "addBankAccount", {**BANK_ACCOUNT, "personalNumber": "SBIN00012"}), "Enter Valid IFSC Code")
    refused(call(player, "addBankAccount", {**BANK_ACCOUNT, "bankAccountNumber": ""}), "Enter Bank Account Number!")
    refused(call(player, "addBankAccount", {**BANK_ACCOUNT, "bankName": "Bank 7"}), "Enter Valid Bank Name")
    assert call(player, "addBankAccount", BANK_ACCOUNT)["success"] is True
    assert call(player, "addBankAccount", BANK_ACCOUNT)["success"] is False
    assert call(player, "addBankAccount", {**BANK_ACCOUNT, "bankAccountNumber": "987654321"})["success"] is True
    infos = call(player, "getBankAccounts")["bankAccountInfos"]
    assert [i["bankAccountNumber"] for i in infos] == ["********9012", "*****4321"]
    assert infos[0]["personalNumber"] == "SBIN0001234" and infos[0]["nameOnAccount"] == "Lucia Gomez"
    assert "123456789012" not in str(infos)
    first, second = (i["bankEncodedID"] for i in infos)
    assert call(player, "deleteBankAccounts", {"bankEncodedIDs": [first, "unknown"]})["success"] is False
    assert call(player, "deleteBankAccounts", {"bankEncodedIDs": [first]})["success"] is True
    assert [i["bankEncodedID"] for i in call(player, "getBankAccounts")["bankAccountInfos"]] == [second]


# --- Payment systems ------------------------------------------------------------------------


def test_payment_systems_list_deposit_and_withdraw_methods_with_limits(player: PlatformClient) -> None:
    systems = call(player, "getPaymentSystems")["paymentSystems"]
    deposits = {s["id"]: (s["minAmount"], s["maxAmount"]) for s in systems if s["type"] == "deposit"}
    withdrawals = {s["name"]: (s["minAmount"], s["maxAmount"]) for s in systems if s["type"] == "withdraw"}
    assert deposits == {326: (100, None), 328: (100, 70000), 329: (1500, None), 332: (5, 70000), 300: (100, 100000)}
    assert withdrawals == {
        "paykassma": (1000, 30000),
        "bank": (250, None),
        "imps": (1000, 10000),
        "transact": (500, None),
        "mercado": (3000, 200000),
    }
    assert [s["id"] for s in call(player, "getPaymentSystems", pgid="3")["paymentSystems"]] == [3]
    assert call(player, "getPaymentSystems", pgid="77")["success"] is False
    # The spec writes the call `getPaymentSystems?pgid`: a pgid without a value lists them all.
    assert len(call(player, "getPaymentSystems", pgid="")["paymentSystems"]) == len(systems)
    only = call(player, "depositSystems", pgid="332")["paymentSystems"]
    assert [(s["id"], s["currency"]) for s in only] == [(332, "VES")]
    assert len(call(player, "depositSystems")["paymentSystems"]) == 5


def test_cash_out_info_names_the_form_its_limits_and_the_cash(player: PlatformClient) -> None:
    paykassma = call(player, "getCashOutInfo", pgid="1")
    assert (paykassma["form"], paykassma["minAmount"], paykassma["maxAmount"]) == ("withdrawFormA", 1000, 30000)
    assert paykassma["cashBalance"] == 5000.0
    call(player, "cashout", {"paymentMethod": "imps", "amount": 1000})
    mercado = call(player, "getCashOutInfo", pgid="mercado")
    assert (mercado["form"], mercado["minAmount"], mercado["maxAmount"]) == ("withdrawFormB", 3000, 200000)
    assert mercado["cashBalance"] == 4000.0
    assert call(player, "getCashOutInfo")["success"] is False


def test_payment_methods_are_method_328s_pay_methods(player: PlatformClient) -> None:
    methods = call(player, "getPaymentMethods")["paymentMethods"]
    assert {m["payMethod"]: (m["minAmount"], m["maxAmount"]) for m in methods} == {
        "phone_pe": (300, 50000),
        "paytm": (300, 50000),
        "upi_s": (300, 70000),
        "upi_l": (100, 50000),
        "ScanNPay": (300, 50000),
    }


def test_every_deposit_method_and_pay_method_has_a_logo_among_the_cms_uploads(player: PlatformClient) -> None:
    systems = call(player, "depositSystems")["paymentSystems"]
    methods = call(player, "getPaymentMethods")["paymentMethods"]
    logos = {s["name"]: s["image"] for s in systems} | {m["name"]: m["image"] for m in methods}

    assert logos["Perfect Money"] == "/capi/uploads/pay-perfectmoney.svg"
    assert len(set(logos.values())) == len(logos) == 10, "one logo per method"
    for name, url in logos.items():
        answer = player.get(url)
        assert answer.status_code == 200, name
        assert answer.headers["content-type"].startswith("image/svg+xml")
        assert ET.fromstring(answer.content).findtext("{http://www.w3.org/2000/svg}title"), name


def test_a_refusal_fault_answers_the_platforms_failure_with_the_chosen_code_and_description(
    player: PlatformClient,
) -> None:
    """The sandbox's way to show the spec's deposit and player-level failures (a refused deposit,
    a failed player-level read)."""
    player.client.put(
        "/_sandbox/faults/buy",
        json={"errorRate": 1, "errorStatus": 200, "code": None, "description": "Provider busy", "count": 1},
    )
    refusal = call(player, "buy", METHOD_300)
    assert (refusal["success"], refusal["code"], refusal["description"]) == (False, None, "Provider busy")
    assert call(player, "buy", METHOD_300)["success"] is True, "a counted fault stops after its count"
    player.client.put("/_sandbox/faults/playerLevels", json={"errorRate": 1, "errorStatus": 200, "code": "LEVELS_DOWN"})
    levels = player.post("/api/cp/playerLevels").json()
    assert (levels["success"], levels["code"]) == (False, "LEVELS_DOWN")


def test_a_balance_read_credits_an_approved_deposit_without_polling(player: PlatformClient) -> None:
    before = player.post("/api/cashier/balance").json()["values"][0]["cash"]["value"]
    deposit = CARD_DEPOSIT
    assert player.post("/api/cashier/buy", deposit).json()["success"] is True
    time.sleep(0.25)
    after = player.post("/api/cashier/balance").json()["values"][0]["cash"]["value"]
    assert after == before + 1000
    assert player.post("/api/cashier/balance").json()["values"][0]["cash"]["value"] == after, "credited once"
