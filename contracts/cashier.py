"""Cashier (cashier-account.md): deposits, withdrawals, bank accounts, payment systems."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts import rules
from contracts.base import PlatformReply, Wire

DEPOSIT_METHODS = (326, 328, 329, 332, 300)
# Method names: 326 India gateway, 328 paykassma-type, 329 365-type (Transact), 332 Venezuela.
PAY_METHODS_328 = ("phone_pe", "paytm", "upi_s", "upi_l", "ScanNPay")
DEPOSIT_PRESETS = (
    250000,
    500000,
    750000,
    1000000,
    1500000,
    2000000,
    2500000,
    5000000,
    10000000,
    20000000,
    30000000,
    50000000,
)
# Method 300 is read as the "perfect-money-style" gateway whose refused deposit the spec answers
# with "try again in 15 minutes" (the one method it leaves unnamed): the player is told to try
# later, not the description.
PERFECT_MONEY_METHOD = 300
PERFECT_MONEY_FAILURE = "Please Try After 15 Minutes"
STATUS_STARTED = "Started"
STATUS_APPROVED = "[PaymentOperationStatus: Approved]"


class DepositForm(Wire, kw_only=True):
    url: str
    method: str
    params: dict[str, str] = {}


class DepositResult(Wire, kw_only=True):
    form: DepositForm | None = None
    redirectUrl: str | None = None
    transactionId: str | None = None
    externalLink: str | None = None
    message: str | None = None


class DepositResponse(PlatformReply, kw_only=True):
    result: DepositResult | None = None
    seque_no: str | None = None


class DepositRequest(Wire, kw_only=True):
    """The deposit call (`buy` / `Mbuy`). Method-specific fields are optional here and
    checked per method (rules.DEPOSIT_*). The session for 328 is added by the gateway:
    the browser never sends `wsession` in a body."""

    paymentMethod: int
    paymentType: Literal["deposit"] = "deposit"
    currency: str
    amount: float
    key: str | None = None
    depositType: str | None = None
    type: str | None = None
    phone: str | None = None
    mobileNumber: str | None = None
    email: str | None = None
    city: str | None = None
    street: str | None = None
    postal_code: str | None = None
    upi_no: str | None = None
    payMethod: str | None = None
    wsession: str | None = None
    userName: str | None = None
    phoneNumber: str | None = None
    address: str | None = None
    emailId: str | None = None
    bankCode: str | None = None
    number: str | None = None
    clientPhone: str | None = None


class PostbackStatusRequest(Wire, kw_only=True):
    """Postback status check: `sid` is the deposit's sequence number."""

    sid: str


class PostbackStatus(PlatformReply, kw_only=True):
    status: str | None = None
    comments: str | None = None


class TransactionDetailRequest(Wire, kw_only=True):
    """Scan-and-pay confirmation: the deposit's sequence number and the player's txn id."""

    seque_no: str
    txnId: Annotated[str, msgspec.Meta(min_length=1)]


class TransactionDetail(PlatformReply, kw_only=True):
    status: str | None = None


class PaymentRedirectRequest(Wire, kw_only=True):
    seque_no: str
    payMethod: str


class PaymentRedirect(PlatformReply, kw_only=True):
    redirectUrl: str | None = None
    seque_no: str | None = None
    payMethod: str | None = None


class PaymentSystem(Wire, kw_only=True):
    id: int
    name: str
    type: Literal["deposit", "withdraw"]
    minAmount: float | None = None
    maxAmount: float | None = None
    currency: str
    image: str | None = None


class PaymentSystemsResponse(PlatformReply, kw_only=True):
    paymentSystems: list[PaymentSystem] = []


class CashOutInfo(PlatformReply, kw_only=True):
    """getCashOutInfo: 'not shown'. Chosen: the limits and the form the method uses."""

    pgid: int | None = None
    form: str | None = None
    minAmount: float | None = None
    maxAmount: float | None = None
    cashBalance: float | None = None


class WithdrawResult(Wire, kw_only=True):
    success: bool = False
    errorMsg: str | None = None


class WithdrawResponse(PlatformReply, kw_only=True):
    result: WithdrawResult | None = None
    cashoutId: str | None = None


class WithdrawFormA(Wire, kw_only=True):
    """Paykassma (`cashout12`): Paytm, Phonepe or UPI; personalNumber is the UPI ID."""

    paymentMethod: str = "paykassma"
    amount: Annotated[float, rules.WITHDRAW_FORM_A["amount"].meta()]
    accountType: Literal["Paytm", "Phonepe", "UPI"]
    personalNumber: str


class WithdrawFormB(Wire, kw_only=True):
    """Argentine (`mercadoCashout`): firstName, alias, cbu, mobileNumber, amount (+ cuit)."""

    firstName: str
    alias: str
    cbu: Annotated[str, rules.WITHDRAW_FORM_B["cbu"].meta()]
    mobileNumber: Annotated[str, rules.WITHDRAW_FORM_B["phone"].meta()]
    amount: Annotated[float, rules.WITHDRAW_FORM_B["amount"].meta()]
    cuitPrefix: Annotated[str, rules.WITHDRAW_FORM_B["cuitPrefix"].meta()] | None = None
    cuit: Annotated[str, rules.WITHDRAW_FORM_B["cuit"].meta()] | None = None


class BankWithdrawRequest(Wire, kw_only=True):
    """Interkassa-style bank withdrawal (`interKassaCashout`), India."""

    paymentMethod: str = "bank"
    amount: Annotated[float, rules.WITHDRAW_BANK_FORM["amount"].meta()]
    ifsc: str
    accountType: str
    bankName: str
    nameOnAccount: str
    personalNumber: str
    address: str
    city: str
    state: str
    zip: str
    phone: str


class CashoutRequest(Wire, kw_only=True):
    """`cashout`: IMPS (1000-10000) and Transact (min 500); paymentMethod names the form."""

    paymentMethod: Literal["imps", "transact"]
    amount: float
    accountNumber: str | None = None
    ifsc: str | None = None
    email: str | None = None
    phone: str | None = None


class OpenWithdrawal(Wire, kw_only=True):
    status: str
    amount: float
    currency: str
    creationDate: str
    refTxnID: str
    displayRefTxnID: str


class OpenWithdrawalsResponse(PlatformReply, kw_only=True):
    withdrawsResponses: list[OpenWithdrawal] = []


class CancelWithdrawRequest(Wire, kw_only=True):
    cashoutId: str


class BankAccount(Wire, kw_only=True):
    bankAccountNumber: Annotated[str, rules.BANK_ACCOUNT_FORM["bankAccountNumber"].meta()]
    bankName: Annotated[str, rules.BANK_ACCOUNT_FORM["bankName"].meta()]
    accountBranchName: Annotated[str, rules.BANK_ACCOUNT_FORM["accountBranchName"].meta()]
    nameOnAccount: Annotated[str, rules.BANK_ACCOUNT_FORM["nameOnAccount"].meta()]
    accountType: Annotated[str, rules.BANK_ACCOUNT_FORM["accountType"].meta()]
    personalNumber: Annotated[str, rules.BANK_ACCOUNT_FORM["personalNumber"].meta()]


class BankAccountInfo(Wire, kw_only=True):
    """A stored account: the number is masked; bankEncodedID closes it."""

    bankEncodedID: str
    bankAccountNumber: str
    bankName: str
    accountBranchName: str
    nameOnAccount: str
    accountType: str
    personalNumber: str


class BankAccountsResponse(PlatformReply, kw_only=True):
    bankAccountInfos: list[BankAccountInfo] = []


class DeleteBankAccountsRequest(Wire, kw_only=True):
    bankEncodedIDs: list[str]


class PaymentMethod(Wire, kw_only=True):
    payMethod: str
    name: str
    minAmount: float
    maxAmount: float
    image: str | None = None
    """The method's logo (not shown in the spec; as PaymentSystem.image): a CMS media URL."""


class PaymentMethodsResponse(PlatformReply, kw_only=True):
    paymentMethods: list[PaymentMethod] = []
