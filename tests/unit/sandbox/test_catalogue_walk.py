"""Walks the whole catalogue: every route answers, and with its contract type."""

from __future__ import annotations

import datetime as dt
from typing import Any

import msgspec
import pytest

from contracts.catalogue import ROUTES, ROUTES_BY_NAME, Route
from tests.support.platform import BANK_WITHDRAW, CARD_DEPOSIT, PlatformClient

TODAY = dt.date.today().strftime("%d-%m-%Y")
HISTORY = {"currency": "ARS", "startDate": "01-01-2020", "endDate": TODAY, "limit": 100, "index": 0}
DEPOSIT = CARD_DEPOSIT
BANK = {
    "bankAccountNumber": "123456789012",
    "bankName": "State Bank",
    "accountBranchName": "Main",
    "nameOnAccount": "Lucia Gomez",
    "accountType": "Savings",
    "personalNumber": "SBIN0001234",
}
GAME = {"gameId": "vs20olympgate", "provider": "pragmaticplay"}

# Route name -> (path params, query, body). Bodies are valid where the call changes nothing
# that later calls need; a refused call must still answer with the route's type.
EXAMPLES: dict[str, tuple[dict[str, str], dict[str, str], Any]] = {
    "login": ({}, {}, {"login": "demo1", "password": "demo123"}),
    "register": (
        {},
        {},
        {
            "login": "walker1",
            "nickname": "walker1",
            "email": "walker1@example.com",
            "firstName": "walker1",
            "password": "secret1",
            "address": {"address": "Calle Falsa 123", "city": "La Rioja", "phone": "1123456789", "state": "LA RIOJA"},
        },
    ),
    "forgotPassword": ({}, {}, {"email": "demo1@example.com", "login": "demo1"}),
    "generateOTP": ({}, {}, {"phone": "1123456789"}),
    "verifyAccount": ({}, {}, {"token": "unknown", "face": "AURORA"}),
    "contactUs": (
        {},
        {},
        {
            "face": "AURORA",
            "firstName": "demo1",
            "email": "demo1@example.com",
            "subject": "Hello",
            "userQuestion": "When do withdrawals arrive?",
            "lang": "en",
        },
    ),
    "affiliateHit": ({}, {}, {"campaignId": "C1", "campaignType": "affiliate", "languageCode": "es"}),
    "mrGameURL": ({}, {}, GAME),
    "mPlayGameURL": ({}, {}, GAME),
    "updateProfile": (
        {},
        {},
        {
            "nickname": "demo1",
            "email": "demo1@example.com",
            "firstName": "Lucia",
            "lastName": "Gomez",
            "address": {"city": "La Rioja", "phone": "1123456789", "country": "AR"},
        },
    ),
    "updatePassword": ({}, {}, {"oldPassword": "wrong12", "newPassword": "demo1234"}),
    "getPlayerProviderList": ({}, {}, {"role": 0, "loginName": "demo1"}),
    "exchange": ({}, {}, {"compPoints": 1000}),
    "leaderboardParticipants": ({}, {}, {"leaderboardId": "unknown"}),
    "getPaymentSystems": ({}, {"pgid": "1"}, {}),
    "depositSystems": ({}, {"pgid": "326"}, {}),
    "getCashOutInfo": ({}, {"pgid": "1"}, {}),
    "cashout": ({}, {}, {"paymentMethod": "imps", "amount": 1000}),
    "cashout12": (
        {},
        {},
        {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"},
    ),
    "mercadoCashout": (
        {},
        {},
        {
            "firstName": "Lucia",
            "alias": "lucia.mp",
            "cbu": "0110599520000001234567",
            "mobileNumber": "1123456789",
            "amount": 3000,
        },
    ),
    "interKassaCashout": ({}, {}, {**BANK_WITHDRAW, "address": "Calle 1"}),
    "buy": ({}, {}, DEPOSIT),
    "Mbuy": ({}, {}, DEPOSIT),
    "depositCallBack": ({}, {}, {"seque_no": "SEQ0", "txnId": "T123"}),
    "depositCallBackStatus": ({}, {}, {"sid": "SEQ0"}),
    "mercadoDepositCallBack": ({}, {}, {"sid": "SEQ0"}),
    "paymentRedirect": ({}, {}, {"seque_no": "SEQ0", "payMethod": "upi_s"}),
    "cancelWithdrawRequest": ({}, {}, {"cashoutId": "CO0"}),
    "addBankAccount": ({}, {}, BANK),
    "deleteBankAccounts": ({}, {}, {"bankEncodedIDs": []}),
    "transactionHistory": ({}, {}, {**HISTORY, "type": "Deposits,Cashout"}),
    "gameHistory": ({}, {}, {**HISTORY, "limit": 10000000}),
    "remoteGamesHistory": ({}, {}, {**HISTORY, "limit": 10000000}),
    "habaneroLaunch": ({"gameId": "hb-egyptian-dreams"}, {}, None),
    "endorphinaLaunch": ({"gameId": "endorphina-minotaurus"}, {}, None),
    "pragmaticLaunch": ({"gameId": "vs20olympgate"}, {}, GAME),
    "mancalaLaunch": ({"Id": "1001"}, {}, {"gameId": "1001", "provider": "mancala"}),
    "rubyPlayLaunch": ({"gameId": "ruby-book"}, {}, {"gameId": "ruby-book", "provider": "rubyplay"}),
    "vivoLaunch": ({}, {}, {"provider": "vivogaming"}),
    "vibraLaunch": ({}, {}, {"gameId": "vibra-1", "provider": "vibra"}),
    "genericLaunch": ({}, {}, {"gameMode": "", "gameId": "", "provider": "evenBet"}),
    "ticketEmail": ({}, {}, {"couponId": "C0"}),
    "gamesLists": ({}, {"filters[gameProviderName][$eq]": "mancala", "filters[locale][$eq]": "es"}, None),
    "sportsEvents": ({}, {"lang": "es"}, None),
    "betslip": ({}, {}, {"selections": []}),
    "anonymousBet": ({}, {}, {"selections": []}),
    "coupon": ({}, {}, {"selections": [], "stake": 10}),
}
LAST = ("uploadFile", "logout")


def _call(client: PlatformClient, route: Route, media_file: str) -> Any:
    params, query, body = EXAMPLES.get(route.name, ({}, {}, None))
    if route.name == "media":
        params = {"file": media_file}
    path = route.upstream_path(params, client.session)
    if route.method == "GET":
        return client.get(path, params=query)
    return client.post(path, {} if body is None else body, params=query)


def test_every_catalogue_route_answers_with_its_contract_type(player: PlatformClient) -> None:
    banners = player.get("/capi/home-banners").json()
    media_file = banners["data"][0]["heroBanner"]["url"].rsplit("/", 1)[-1]
    player.client.delete("/_sandbox/calls")
    walked = []
    for route in [r for r in ROUTES if r.name not in LAST]:
        response = _call(player, route, media_file)
        assert response.status_code == 200, (route.name, response.text)
        if route.binary:
            assert response.headers["content-type"].startswith("image/"), route.name
        else:
            msgspec.json.decode(response.content, type=route.response)
        walked.append(route.name)
    upload = player.client.post(
        "/api/player/uploadFile",
        files={"file": ("id.png", b"\x89PNG fake", "image/png")},
        data={"docType": "1", "docNumber": "A123"},
        headers=player.headers(),
    )
    msgspec.json.decode(upload.content, type=ROUTES_BY_NAME["uploadFile"].response)
    logout = player.post("/api/player/logout", {})
    msgspec.json.decode(logout.content, type=ROUTES_BY_NAME["logout"].response)
    walked += list(LAST)
    assert sorted(walked) == sorted(r.name for r in ROUTES)
    counted = player.client.get("/_sandbox/calls").json()
    assert [r.name for r in ROUTES if counted.get(r.name, 0) < 1] == []


@pytest.mark.parametrize("route", [r for r in ROUTES if r.auth], ids=lambda r: r.name)
def test_authenticated_routes_refuse_a_missing_session(platform: PlatformClient, route: Route) -> None:
    params, query, body = EXAMPLES.get(route.name, ({}, {}, None))
    path = route.upstream_path(params, "no-such-session")
    response = platform.get(path, params=query) if route.method == "GET" else platform.post(path, body or {})
    assert response.json()["code"] == "SESSION_EXPIRED", route.name
