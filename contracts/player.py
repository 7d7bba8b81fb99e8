"""Players: login, registration, password, profile, documents, providers, contact."""

from __future__ import annotations

from typing import Annotated, Literal

from contracts import rules
from contracts.base import PlatformReply, Wire

Username = Annotated[str, rules.USERNAME.meta()]
Password = Annotated[str, rules.PASSWORD.meta()]
Email = Annotated[str, rules.EMAIL_FIELD.meta()]


class LoginRequest(Wire, kw_only=True):
    login: Username
    password: Password


class GameLaunchResult(Wire, kw_only=True):
    """The optional game launch inside a login response: only its success flag is known."""

    success: bool = False


class LoginDetails(Wire, kw_only=True):
    """`loginResponse`: sessionId and affiliatePostBackURL are named; the rest is 'not shown'."""

    sessionId: str | None = None
    affiliatePostBackURL: str | None = None
    gameLaunchResponse: GameLaunchResult | None = None
    login: str | None = None


class LoginResponse(PlatformReply, kw_only=True):
    sessionId: str | None = None
    loginResponse: LoginDetails | None = None


class RegisterAddress(Wire, kw_only=True):
    address: Annotated[str, rules.ADDRESS.meta()] | None = None
    city: str | None = None
    phone: Annotated[str, rules.PHONE.meta()] | None = None
    # Always "LA RIOJA": the spec's profile payload sends that state whatever the address.
    state: str = "LA RIOJA"


class RegisterRequest(Wire, kw_only=True):
    """Register payload. nickname and firstName equal login; email is lower-cased."""

    login: Username
    nickname: str
    email: Email
    firstName: Annotated[str, rules.FIRST_NAME.meta()] | None = None
    lastName: Annotated[str, rules.LAST_NAME.meta()] | None = None
    password: Password
    ssn: Annotated[str, rules.SSN.meta()] | None = None
    campaignCode: str | None = None
    wmReferenceId: str | None = None
    referralType: str | None = None
    address: RegisterAddress | None = None
    # The form's promocode (the form holds it; the spec names only acceptTerms as not sent).
    promocode: str | None = None


class RegisterResponse(PlatformReply, kw_only=True):
    loginResponse: LoginDetails | None = None


class ForgotPasswordRequest(Wire, kw_only=True):
    email: Email
    login: Username


class OtpRequest(Wire, kw_only=True):
    """'OTP request payload: not shown'. Chosen: the phone number the OTP goes to."""

    phone: Annotated[str, rules.PHONE.meta()]


class VerifyAccountRequest(Wire, kw_only=True):
    token: str
    face: str


class VerifyAccountResponse(PlatformReply, kw_only=True):
    pass


class AffiliateHitRequest(Wire, kw_only=True):
    campaignId: str
    campaignType: str
    languageCode: str


class Country(Wire, kw_only=True):
    code: str
    name: str


class CountriesResponse(PlatformReply, kw_only=True):
    countries: list[Country] = []


class ProfileAddress(Wire, kw_only=True):
    address: str | None = None
    city: str | None = None
    state: str | None = None
    zipCode: str | None = None
    country: str | None = None
    phone: str | None = None


class Profile(PlatformReply, kw_only=True):
    """getProfile. deposits/withdrawal are the menu flags: 0 removes the link."""

    login: str | None = None
    nickname: str | None = None
    email: str | None = None
    firstName: str | None = None
    lastName: str | None = None
    birthday: str | None = None
    playertype: str | None = None
    address: ProfileAddress | None = None
    deposits: int | None = None
    withdrawal: int | None = None


class UpdateProfileAddress(Wire, kw_only=True):
    city: str
    phone: str
    country: str


class UpdateProfileRequest(Wire, kw_only=True):
    nickname: Username
    email: Email
    firstName: str
    lastName: str
    address: UpdateProfileAddress


class UpdatePasswordRequest(Wire, kw_only=True):
    oldPassword: Annotated[str, rules.PASSWORD_CHANGE_FORM["oldPassword"].meta()]
    newPassword: Annotated[str, rules.PASSWORD_CHANGE_FORM["newPassword"].meta()]


DocType = Literal["Pan Card", "Address Proof", "Id Proof", "Other"]
# Upload codes: 1 ID, 2 address, 3 PAN, 0 other.
DOC_CODES: dict[int, DocType] = {1: "Id Proof", 2: "Address Proof", 3: "Pan Card", 0: "Other"}


class Document(Wire, kw_only=True):
    docType: str
    docNumber: str | None = None
    fileName: str | None = None
    status: str | None = None
    uploadedOn: str | None = None


class DocumentsResponse(PlatformReply, kw_only=True):
    documents: list[Document] = []


class UploadFileResponse(PlatformReply, kw_only=True):
    """uploadFile is multipart: file, docType (code 0-3), docNumber."""


class ProviderPermissionsRequest(Wire, kw_only=True):
    role: int = 0
    loginName: str


class ProviderPermission(Wire, kw_only=True):
    """Post-login list entry: status is a boolean."""

    name: str
    status: bool


class ProviderStatus(Wire, kw_only=True):
    """Pre-login list entry: status is 1 (enabled) or 0 (disabled)."""

    name: str
    status: Literal[0, 1]


class ContactRequest(Wire, kw_only=True):
    face: str
    ip: str | None = None
    lang: str = "en"
    loginName: str | None = None
    firstName: Annotated[str, rules.USERNAME.meta()]
    lastName: str | None = None
    email: Annotated[str, rules.CONTACT_FORM["email"].meta()]
    subject: str
    userQuestion: str


class Money(Wire, kw_only=True):
    value: float = 0.0


class WageringInfo(PlatformReply, kw_only=True):
    bonus: Money | None = None
    lockedBonus: Money | None = None
    accumulatedBet: Money | None = None
    balance: Money | None = None
    remainingBet: Money | None = None


class PlayerStats(PlatformReply, kw_only=True):
    """getStats: 'not shown'. Chosen: lifetime totals of the player's play."""

    totalBets: float = 0.0
    totalWins: float = 0.0
    gamesPlayed: int = 0


class Currency(Wire, kw_only=True):
    code: str
    symbol: str


class CurrenciesResponse(PlatformReply, kw_only=True):
    currencies: list[Currency] = []


class PokerTournament(Wire, kw_only=True):
    id: str
    name: str
    startDate: str
    buyIn: float
    prizePool: float


class PokerTournamentsResponse(PlatformReply, kw_only=True):
    tournamentList: list[PokerTournament] = []


class LaunchUrls(PlatformReply, kw_only=True):
    """getLaunchURLS: 'not shown'. Chosen: launch page addresses by provider name."""

    urls: dict[str, str] = {}


class PlatformGame(Wire, kw_only=True):
    gameId: str
    name: str
    provider: str


class GamesResponse(PlatformReply, kw_only=True):
    games: list[PlatformGame] = []
