"""Cashier (cashier-account.md): deposits and their provider status, withdrawals held from
cash until cancelled, bank accounts and the payment systems.

A deposit starts 'Started'. The sandbox provider approves it `deposit_approval_delay_s`
after it was made (scan-and-pay: after the player gives the transaction id); the first
cashier, history or balance call after that credits the player's cash, once (`settle`).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import time
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

from litestar import MediaType, route
from litestar.params import FromPath, FromQuery

from contracts import rules
from contracts.base import PlatformReply
from contracts.cashier import (
    PAY_METHODS_328,
    PERFECT_MONEY_METHOD,
    STATUS_APPROVED,
    BankAccount,
    BankAccountInfo,
    BankAccountsResponse,
    BankWithdrawRequest,
    CancelWithdrawRequest,
    CashOutInfo,
    CashoutRequest,
    DeleteBankAccountsRequest,
    DepositForm,
    DepositRequest,
    DepositResponse,
    DepositResult,
    OpenWithdrawal,
    OpenWithdrawalsResponse,
    PaymentMethod,
    PaymentMethodsResponse,
    PaymentRedirect,
    PaymentRedirectRequest,
    PaymentSystem,
    PaymentSystemsResponse,
    PostbackStatus,
    PostbackStatusRequest,
    TransactionDetail,
    TransactionDetailRequest,
    WithdrawFormA,
    WithdrawFormB,
    WithdrawResponse,
    WithdrawResult,
)
from contracts.rules import FieldRule, FormRules
from sandbox.media import pay_logo_url
from sandbox.platform import Call, Registry, Reject, check, failure
from sandbox.state import BankAccountRecord, CashoutRecord, DepositRecord, PlatformState, Player, Site, money

routes = Registry()

PAY_PAGE = "/_sandbox/pay"
SCAN_AND_PAY = "ScanNPay"
WITHDRAWAL_SUCCESS = "Withdrawal Succesfull"  # sic: the spec's spelling
NO_BANK_ACCOUNTS = "no bank account details"
UNKNOWN_DEPOSIT = "Unknown deposit"
DEPOSIT_NAMES: Mapping[int, str] = {
    326: "India gateway",
    328: "Paykassma",
    329: "Transact",
    332: "Venezuela",
    PERFECT_MONEY_METHOD: "Perfect Money",
}
PAY_METHOD_NAMES: Mapping[str, str] = {
    "phone_pe": "PhonePe",
    "paytm": "Paytm",
    "upi_s": "UPI_NEW",
    "upi_l": "UPI",
    SCAN_AND_PAY: "Scan and Pay",
}
# Each method's logo among the CMS uploads (sandbox/marks.py draws them).
DEPOSIT_LOGOS: Mapping[int, str] = {
    326: "card",
    328: "wallets",
    329: "transact",
    332: "venezuela",
    PERFECT_MONEY_METHOD: "perfectmoney",
}
PAY_METHOD_LOGOS: Mapping[str, str] = {
    "phone_pe": "phonepe",
    "paytm": "paytm",
    "upi_s": "upi",
    "upi_l": "upi-id",
    SCAN_AND_PAY: "scan",
}
# Withdrawal systems are not numbered in the spec: chosen ids 1-5, apart from the deposit ids.
WITHDRAW_IDS: Mapping[str, int] = {"paykassma": 1, "bank": 2, "imps": 3, "transact": 4, "mercado": 5}
# The chosen method decides the form: paykassma shows form A, anything else form B (rules.ALL_FORMS keys).
FORM_A, FORM_B = "withdrawFormA", "withdrawFormB"
PAY_METHOD_RULE = FieldRule(
    required="Please select payment method", one_of=PAY_METHODS_328, one_of_message="Please select payment method"
)
DEPOSIT_FORMS: Mapping[int, FormRules] = {
    329: rules.DEPOSIT_TRANSACT_FORM,
    332: rules.VENEZUELA_DEPOSIT_FORM,
    300: rules.DEPOSIT_300_FORM,
}
CASHOUT_FORMS: Mapping[str, FormRules] = {"imps": rules.WITHDRAW_IMPS_FORM, "transact": rules.WITHDRAW_TRANSACT_FORM}


def iso_utc(timestamp: float) -> str:
    """An ISO 8601 UTC instant, as history rows and open withdrawals carry dates."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _base_url(call: Call) -> str:
    return (call.state.public_url or str(call.request.base_url)).rstrip("/")


# --- Settling deposits --------------------------------------------------------------------


def settle(state: PlatformState, site: Site, player: Player) -> None:
    """Credits every deposit the sandbox provider has approved by now (each once)."""
    now = time.time()
    for deposit in player.deposits:
        if not deposit.credited and deposit.approve_after is not None and now >= deposit.approve_after:
            _approve(site, player, deposit)


def _approve(site: Site, player: Player, deposit: DepositRecord) -> None:
    deposit.status = STATUS_APPROVED
    deposit.history_status = "Approved"
    deposit.credited = True
    player.main.cash += deposit.amount
    site.record(player, "deposit", deposit.amount, deposit.seque_no)


def settled(call: Call) -> Player:
    """The calling player, with approved deposits credited."""
    player = call.player
    settle(call.state, call.site, player)
    return player


def _deposit_of(player: Player, seque_no: str) -> DepositRecord | None:
    return next((d for d in player.deposits if d.seque_no == seque_no), None)


def _progress(deposit: DepositRecord) -> str:
    """The provider's comment on where a deposit stands."""
    if deposit.credited:
        return "Payment approved"
    if deposit.history_status == "Locked":
        return "Payment locked by the provider"
    if deposit.pay_method == SCAN_AND_PAY and deposit.txn_id is None:
        return "Waiting for the transaction id"
    return "Waiting for the payment provider"


# --- Deposits -----------------------------------------------------------------------------


def deposit_rules(data: Mapping[str, Any]) -> FormRules:
    """The validation rules of the deposit's method (and, for 326 and 328, its kind)."""
    method = data.get("paymentMethod")
    if method == 326:
        upi = str(data.get("type") or data.get("depositType") or "").upper() == "UPI"
        return {**rules.DEPOSIT_326_FORM, "upi_no": rules.DEPOSIT_326_UPI} if upi else rules.DEPOSIT_326_FORM
    if method == 328:
        check({"payMethod": PAY_METHOD_RULE}, data)
        pay_method = str(data["payMethod"])
        amount = rules.PAYKASSMA_DEPOSIT_LIMITS[pay_method]
        upi_long = {"upi_no": rules.PAYKASSMA_UPI_ADDRESS} if pay_method == "upi_l" else {}
        return {"amount": amount, **upi_long}
    if isinstance(method, int) and method in DEPOSIT_FORMS:
        return DEPOSIT_FORMS[method]
    raise failure("Unknown payment method", "UNKNOWN_PAYMENT_METHOD")


def _pay_page(call: Call, deposit: DepositRecord, **extra: str) -> str:
    provider = PAY_METHOD_NAMES.get(deposit.pay_method or "") or DEPOSIT_NAMES[deposit.method]
    query = urlencode({"amount": str(deposit.amount), "currency": deposit.currency, "provider": provider, **extra})
    return f"{_base_url(call)}{PAY_PAGE}/{quote(deposit.seque_no, safe='')}?{query}"


def _deposit_result(call: Call, deposit: DepositRecord, request: DepositRequest) -> DepositResult:
    """Where the player pays: 326 posts a form, scan-and-pay shows a QR, the others redirect."""
    if deposit.method == 326:
        params = {"seque_no": deposit.seque_no, "amount": str(deposit.amount), "email": request.email or ""}
        return DepositResult(form=DepositForm(url=_pay_page(call, deposit), method="POST", params=params))
    if deposit.pay_method == SCAN_AND_PAY:
        return DepositResult(
            externalLink=_pay_page(call, deposit, view="qr"),
            message="Scan the QR code, pay, then enter the transaction id",
        )
    return DepositResult(redirectUrl=_pay_page(call, deposit))


async def _deposit(call: Call) -> DepositResponse:
    player = settled(call)
    # Server-side effect of the deposits flag is not shown: a flagged account is refused.
    if player.deposits_flag == 0:
        raise failure("Deposits are disabled for this account", "DEPOSITS_DISABLED")
    request = call.body(DepositRequest, deposit_rules(call.json()))
    now = time.time()
    deposit = DepositRecord(
        seque_no=call.state.next_id("SEQ"),
        method=request.paymentMethod,
        amount=money(request.amount),
        # The sandbox keeps no exchange rates: every deposit is credited in the site's currency.
        currency=call.site.currency,
        created=now,
        pay_method=request.payMethod,
    )
    if deposit.pay_method != SCAN_AND_PAY:
        deposit.approve_after = now + call.state.deposit_approval_delay_s
    player.deposits.append(deposit)
    return DepositResponse(seque_no=deposit.seque_no, result=_deposit_result(call, deposit, request))


@routes("buy")
async def buy(call: Call) -> DepositResponse:
    return await _deposit(call)


@routes("Mbuy")
async def mobile_buy(call: Call) -> DepositResponse:
    """The mobile site's deposit: the same provider flow."""
    return await _deposit(call)


@routes("depositCallBackStatus")
async def deposit_status(call: Call) -> PostbackStatus:
    """The polled postback status: 'Started' until the provider approves."""
    player = settled(call)
    deposit = _deposit_of(player, call.body(PostbackStatusRequest).sid)
    if deposit is None:
        raise failure(UNKNOWN_DEPOSIT, "NOT_FOUND")
    return PostbackStatus(status=deposit.status, comments=_progress(deposit))


def _detail_failure(message: str) -> TransactionDetail:
    """Status 'failure' keeps the scan-and-pay page open with the message."""
    return TransactionDetail(success=False, status="failure", message=message, description=message)


@routes("depositCallBack")
async def confirm_scan_and_pay(call: Call) -> TransactionDetail:
    """Scan-and-pay: the player's transaction id starts the provider's approval clock."""
    player = settled(call)
    request = call.body(TransactionDetailRequest, rules.SCAN_AND_PAY_CONFIRM_FORM)
    deposit = _deposit_of(player, request.seque_no)
    if deposit is None:
        return _detail_failure(UNKNOWN_DEPOSIT)
    if deposit.txn_id not in (None, request.txnId):
        return _detail_failure("A transaction id was already given for this deposit")
    deposit.txn_id = request.txnId
    if deposit.approve_after is None and not deposit.credited:
        deposit.approve_after = time.time() + call.state.deposit_approval_delay_s
    return TransactionDetail(status="success", message=f"Transaction {request.txnId} received: {_progress(deposit)}")


@routes("mercadoDepositCallBack")
async def payment_status(call: Call) -> TransactionDetail:
    player = settled(call)
    deposit = _deposit_of(player, call.body(PostbackStatusRequest).sid)
    if deposit is None:
        return _detail_failure(UNKNOWN_DEPOSIT)
    return TransactionDetail(status=deposit.status, message=_progress(deposit))


@routes("paymentRedirect")
async def payment_redirect(call: Call) -> PaymentRedirect:
    player = settled(call)
    request = call.body(PaymentRedirectRequest)
    deposit = _deposit_of(player, request.seque_no)
    if deposit is None:
        raise failure(UNKNOWN_DEPOSIT, "NOT_FOUND")
    url = _pay_page(call, deposit, payMethod=request.payMethod)
    return PaymentRedirect(redirectUrl=url, seque_no=deposit.seque_no, payMethod=request.payMethod)


# --- Withdrawals --------------------------------------------------------------------------


def _withdrawer(call: Call) -> Player:
    player = settled(call)
    # Server-side effect of the withdrawal flag is not shown: a flagged account is refused.
    if player.withdrawal_flag == 0:
        raise failure("Withdrawals are disabled for this account", "WITHDRAWALS_DISABLED")
    return player


def _withdraw(call: Call, player: Player, method: str, amount: float) -> WithdrawResponse:
    """Holds the amount out of cash at once as a Pending cashout."""
    held = money(amount)
    if held > player.main.cash:
        short = rules.INSUFFICIENT_BALANCE
        raise Reject(WithdrawResponse(success=False, description=short, result=WithdrawResult(errorMsg=short)))
    cashout = CashoutRecord(
        cashout_id=call.state.next_id("CO"),
        amount=held,
        currency=call.site.currency,
        method=method,
        created=time.time(),
    )
    player.main.cash -= held
    player.cashouts.append(cashout)
    call.site.record(player, "cashout", -held, cashout.cashout_id)
    return WithdrawResponse(
        description=WITHDRAWAL_SUCCESS, result=WithdrawResult(success=True), cashoutId=cashout.cashout_id
    )


@routes("cashout")
async def cashout(call: Call) -> WithdrawResponse:
    """IMPS (1000-10000) or Transact (min 500), by paymentMethod."""
    player = _withdrawer(call)
    form = CASHOUT_FORMS.get(str(call.json().get("paymentMethod")))
    if form is None:
        raise failure("Unknown payment method", "UNKNOWN_PAYMENT_METHOD")
    request = call.body(CashoutRequest, form)
    return _withdraw(call, player, request.paymentMethod, request.amount)


@routes("cashout12")
async def paykassma_cashout(call: Call) -> WithdrawResponse:
    player = _withdrawer(call)
    request = call.body(WithdrawFormA, rules.WITHDRAW_FORM_A)
    return _withdraw(call, player, "paykassma", request.amount)


@routes("mercadoCashout")
async def mercado_cashout(call: Call) -> WithdrawResponse:
    """Form B: the post carries firstName, alias, cbu, mobileNumber; the form's rules say name, phone."""
    player = _withdrawer(call)
    data = call.json()
    form = {
        "name": "firstName",
        "alias": "alias",
        "cbu": "cbu",
        "phone": "mobileNumber",
        "amount": "amount",
        "cuitPrefix": "cuitPrefix",
        "cuit": "cuit",
    }
    check(rules.WITHDRAW_FORM_B, {field: data.get(posted) for field, posted in form.items()})
    request = call.body(WithdrawFormB)
    return _withdraw(call, player, "mercado", request.amount)


@routes("interKassaCashout")
async def bank_cashout(call: Call) -> WithdrawResponse:
    player = _withdrawer(call)
    request = call.body(BankWithdrawRequest, rules.WITHDRAW_BANK_FORM)
    return _withdraw(call, player, "bank", request.amount)


def _open_withdrawal(cashout: CashoutRecord) -> OpenWithdrawal:
    return OpenWithdrawal(
        status=cashout.status,
        amount=float(cashout.amount),
        currency=cashout.currency,
        creationDate=iso_utc(cashout.created),
        refTxnID=cashout.cashout_id,
        displayRefTxnID=f"WD-{cashout.cashout_id.removeprefix('CO')}",
    )


@routes("getOpenWithdrawRequests")
async def open_withdrawals(call: Call) -> OpenWithdrawalsResponse:
    player = settled(call)
    pending = [_open_withdrawal(c) for c in player.cashouts if c.status == "Pending"]
    return OpenWithdrawalsResponse(withdrawsResponses=pending)


@routes("cancelWithdrawRequest")
async def cancel_withdrawal(call: Call) -> PlatformReply:
    """Only a Pending cashout of the caller: its amount goes back to cash."""
    player = settled(call)
    wanted = call.body(CancelWithdrawRequest).cashoutId
    cashout = next((c for c in player.cashouts if c.cashout_id == wanted and c.status == "Pending"), None)
    if cashout is None:
        raise failure("No open withdrawal request with this id", "NOT_FOUND")
    cashout.status = "Cancelled"
    cashout.cancelled_amount = cashout.amount
    player.main.cash += cashout.amount
    call.site.record(player, "cashout-cancel", cashout.amount, cashout.cashout_id)
    return PlatformReply(description="Withdrawal request cancelled")


# --- Bank accounts ------------------------------------------------------------------------


def _masked(number: str) -> str:
    return "*" * (len(number) - 4) + number[-4:]


def _bank_account_info(account: BankAccountRecord) -> BankAccountInfo:
    return BankAccountInfo(
        bankEncodedID=account.encoded_id,
        bankAccountNumber=_masked(account.account_number),
        bankName=account.bank_name,
        accountBranchName=account.branch_name,
        nameOnAccount=account.name_on_account,
        accountType=account.account_type,
        personalNumber=account.ifsc,
    )


@routes("addBankAccount")
async def add_bank_account(call: Call) -> PlatformReply:
    player = settled(call)
    request = call.body(BankAccount, rules.BANK_ACCOUNT_FORM)
    ifsc = request.personalNumber.upper()
    # Duplicates are not shown: the same number at the same IFSC is stored once.
    if any(a.account_number == request.bankAccountNumber and a.ifsc == ifsc for a in player.bank_accounts.values()):
        raise failure("This bank account is already added", "DUPLICATE")
    encoded_id = base64.urlsafe_b64encode(call.state.next_id("BANK").encode()).decode().rstrip("=")
    player.bank_accounts[encoded_id] = BankAccountRecord(
        encoded_id=encoded_id,
        account_number=request.bankAccountNumber,
        bank_name=request.bankName,
        branch_name=request.accountBranchName,
        name_on_account=request.nameOnAccount,
        account_type=request.accountType,
        ifsc=ifsc,
    )
    added = "Bank account added successfully"
    return PlatformReply(description=added, message=added)


@routes("getBankAccounts")
async def bank_accounts(call: Call) -> BankAccountsResponse:
    player = settled(call)
    infos = [_bank_account_info(a) for a in player.bank_accounts.values()]
    return BankAccountsResponse(bankAccountInfos=infos, description=None if infos else NO_BANK_ACCOUNTS)


@routes("deleteBankAccounts")
async def delete_bank_accounts(call: Call) -> PlatformReply:
    """Closes every listed account, or none if one of them is unknown."""
    player = settled(call)
    wanted = call.body(DeleteBankAccountsRequest).bankEncodedIDs
    if not wanted or any(encoded_id not in player.bank_accounts for encoded_id in wanted):
        raise failure(NO_BANK_ACCOUNTS, "NOT_FOUND")
    for encoded_id in wanted:
        del player.bank_accounts[encoded_id]
    return PlatformReply(description="Bank account deleted successfully")


# --- Payment systems ----------------------------------------------------------------------


def _deposit_limits(method: int) -> tuple[float | None, float | None]:
    if method == 328:
        limits = rules.PAYKASSMA_DEPOSIT_LIMITS.values()
        return min(r.minimum or 0 for r in limits), max(r.maximum or 0 for r in limits)
    amount = (rules.DEPOSIT_326_FORM if method == 326 else DEPOSIT_FORMS[method])["amount"]
    return amount.minimum, amount.maximum


def deposit_systems(site: Site) -> list[PaymentSystem]:
    systems = []
    for method, name in DEPOSIT_NAMES.items():
        low, high = _deposit_limits(method)
        currency = "VES" if method == 332 else site.currency
        image = pay_logo_url(DEPOSIT_LOGOS[method])
        systems.append(
            PaymentSystem(
                id=method, name=name, type="deposit", minAmount=low, maxAmount=high, currency=currency, image=image
            )
        )
    return systems


def withdraw_systems(site: Site) -> list[PaymentSystem]:
    return [
        PaymentSystem(
            id=method_id,
            name=name,
            type="withdraw",
            minAmount=rules.WITHDRAW_FORMS[name]["amount"].minimum,
            maxAmount=rules.WITHDRAW_FORMS[name]["amount"].maximum,
            currency=site.currency,
        )
        for name, method_id in WITHDRAW_IDS.items()
    ]


def _pick(systems: Sequence[PaymentSystem], pgid: str | None) -> list[PaymentSystem]:
    """All systems (no pgid, or one without a value: `getPaymentSystems?pgid`), or the one whose
    id (or name) is `pgid`."""
    if not pgid:
        return list(systems)
    chosen = [s for s in systems if pgid.lower() in (str(s.id), s.name.lower())]
    if not chosen:
        raise failure("Unknown payment system", "UNKNOWN_PAYMENT_SYSTEM")
    return chosen


@routes("getPaymentSystems")
async def payment_systems(call: Call) -> PaymentSystemsResponse:
    settled(call)
    systems = [*deposit_systems(call.site), *withdraw_systems(call.site)]
    return PaymentSystemsResponse(paymentSystems=_pick(systems, call.query.get("pgid")))


@routes("depositSystems")
async def deposit_systems_of(call: Call) -> PaymentSystemsResponse:
    settled(call)
    return PaymentSystemsResponse(paymentSystems=_pick(deposit_systems(call.site), call.query.get("pgid")))


@routes("getCashOutInfo")
async def cash_out_info(call: Call) -> CashOutInfo:
    """The withdrawal method's form (A for paykassma, else B), that form's limits and the cash."""
    player = settled(call)
    pgid = call.query.get("pgid")
    if pgid is None:
        raise failure("Unknown payment system", "UNKNOWN_PAYMENT_SYSTEM")
    system = _pick(withdraw_systems(call.site), pgid)[0]
    form = FORM_A if system.name == "paykassma" else FORM_B
    amount = rules.ALL_FORMS[form]["amount"]
    return CashOutInfo(
        pgid=system.id,
        form=form,
        minAmount=amount.minimum,
        maxAmount=amount.maximum,
        cashBalance=float(player.main.cash),
    )


@routes("getPaymentMethods")
async def payment_methods(call: Call) -> PaymentMethodsResponse:
    """Method 328's pay methods, each with its own limits."""
    settled(call)
    methods = [
        PaymentMethod(
            payMethod=pay_method,
            name=PAY_METHOD_NAMES[pay_method],
            minAmount=rule.minimum or 0,
            maxAmount=rule.maximum or 0,
            image=pay_logo_url(PAY_METHOD_LOGOS[pay_method]),
        )
        for pay_method, rule in rules.PAYKASSMA_DEPOSIT_LIMITS.items()
    ]
    return PaymentMethodsResponse(paymentMethods=methods)


# --- The sandbox provider's payment page ----------------------------------------------------


def _qr_code(seque_no: str) -> str:
    """A QR-looking SVG drawn from the deposit's number (scannable by nobody)."""
    bits = "".join(f"{byte:08b}" for byte in hashlib.sha256(seque_no.encode()).digest() * 2)
    cells = [(i % 21, i // 21) for i, bit in enumerate(bits[: 21 * 21]) if bit == "1"]
    squares = "".join(f'<rect x="{x}" y="{y}" width="1" height="1"/>' for x, y in cells)
    return f'<svg viewBox="0 0 21 21" width="210" height="210" shape-rendering="crispEdges">{squares}</svg>'


@route(
    f"{PAY_PAGE}/{{seque_no:str}}",
    http_method=["GET", "POST"],
    media_type=MediaType.HTML,
    status_code=200,
    sync_to_thread=False,
)
def payment_page(
    seque_no: FromPath[str],
    amount: FromQuery[str] = "",
    currency: FromQuery[str] = "",
    provider: FromQuery[str] = "",
    view: FromQuery[str] = "",
) -> str:
    """Where a deposit's redirect, form post or QR link lands: the provider's page, which
    approves by itself after the sandbox's approval delay."""
    qr = _qr_code(seque_no) if view == "qr" else ""
    step = "Pay with your UPI app, then enter the transaction id on the site." if qr else "Payment received."
    return PAY_HTML.format(
        provider=escape(provider or "Sandbox provider"),
        amount=escape(f"{amount} {currency}".strip()),
        seque_no=escape(seque_no),
        qr=qr,
        step=escape(step),
    )


PAY_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{provider} · {amount}</title>
<style>
  body {{ margin: 0; min-height: 100vh; display: grid; place-items: center; font-family: Verdana, sans-serif;
         background: #f1f4f8; color: #1d2633; }}
  main {{ background: #fff; padding: 28px 36px; border-radius: 14px; box-shadow: 0 6px 24px #0002;
         text-align: center; }}
  h1 {{ margin: 0 0 6px; font-size: 22px; }}
  .amount {{ font-size: 30px; font-weight: 700; margin: 12px 0; }}
  .meta {{ font-size: 12px; opacity: .6; }}
</style>
</head>
<body>
<main>
  <h1>{provider}</h1>
  <p class="amount">{amount}</p>
  {qr}
  <p>{step}</p>
  <p>The sandbox provider approves this deposit in a few seconds; you can close this window.</p>
  <p class="meta">Deposit {seque_no}</p>
</main>
</body>
</html>
"""
