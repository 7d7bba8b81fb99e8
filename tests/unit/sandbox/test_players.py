"""The sandbox's player calls as a player or an operator sees them: sessions, registration
with every validation rule, recovery, profile and password, documents, providers, wallets
and the VIP club."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from contracts.catalogue import ROUTES_BY_NAME
from tests.support.platform import PlatformClient

NEW_PLAYER = {
    "login": "newbie1",
    "nickname": "newbie1",
    "email": "NewBie1@Example.com",
    "firstName": "newbie1",
    "password": "secret1",
    "campaignCode": "AB12CD34",
    "address": {"address": "Calle Falsa 123", "city": "La Rioja", "phone": "1123456789", "state": "LA RIOJA"},
}
PROFILE = {
    "nickname": "demo1",
    "email": "Lucia@Example.com",
    "firstName": "Lucia",
    "lastName": "Gomez",
    "address": {"city": "Chilecito", "phone": "3825123456", "country": "AR"},
}


def address(**change: str) -> dict[str, Any]:
    """The register payload's address with some fields changed."""
    return {"address": {**NEW_PLAYER["address"], **change}}


def call(client: PlatformClient, name: str, body: Any = None) -> dict[str, Any]:
    """One catalogue call by route name; the answer's JSON."""
    answer = client.post(ROUTES_BY_NAME[name].path, {} if body is None else body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def wallets(client: PlatformClient) -> dict[str, dict[str, Any]]:
    return {entry["wallet"]["name"]: entry for entry in call(client, "balance")["values"]}


def upload(client: PlatformClient, files: Any, data: dict[str, str]) -> dict[str, Any]:
    answer = client.client.post(ROUTES_BY_NAME["uploadFile"].path, files=files, data=data, headers=client.headers())
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


# --- Sessions --------------------------------------------------------------------------------


def test_login_answers_the_session_id_twice_and_opens_a_session(platform: PlatformClient) -> None:
    body = call(platform, "login", {"login": "DEMO1", "password": "demo123"})
    assert body["success"] is True
    assert body["sessionId"] and body["sessionId"] == body["loginResponse"]["sessionId"]
    platform.session = body["sessionId"]
    assert call(platform, "getProfile")["login"] == "demo1"


@pytest.mark.parametrize(("login", "password"), [("demo1", "wrong123"), ("nobody1", "demo123")])
def test_login_with_wrong_login_or_password_is_refused(platform: PlatformClient, login: str, password: str) -> None:
    body = call(platform, "login", {"login": login, "password": password})
    assert body["success"] is False
    assert body["description"] == "Invalid Login or Password"
    assert "sessionId" not in body or body["sessionId"] is None


def test_login_form_rules_answer_the_spec_words(platform: PlatformClient) -> None:
    body = call(platform, "login", {"login": "ab", "password": "demo123"})
    assert body["success"] is False
    assert body["description"] == "Username must be min 4 characters max 15 characters"
    assert body["errors"] == {"login": "Username must be min 4 characters max 15 characters"}


def test_logout_ends_the_session(player: PlatformClient) -> None:
    assert call(player, "logout")["success"] is True
    assert call(player, "getProfile")["code"] == "SESSION_EXPIRED"


# --- Registration ----------------------------------------------------------------------------


def test_register_creates_a_signed_in_player_with_empty_cash(platform: PlatformClient) -> None:
    body = call(platform, "register", NEW_PLAYER)
    assert body["success"] is True
    details = body["loginResponse"]
    assert "AB12CD34" in details["affiliatePostBackURL"]
    platform.session = details["sessionId"]
    profile = call(platform, "getProfile")
    assert (profile["login"], profile["nickname"], profile["email"]) == ("newbie1", "newbie1", "newbie1@example.com")
    assert profile["address"]["state"] == "LA RIOJA"
    assert profile["address"]["phone"] == "1123456789"
    assert wallets(platform)["INR"]["cash"]["value"] == 0.0
    platform.session = None
    assert call(platform, "login", {"login": "newbie1", "password": "secret1"})["success"] is True


def test_register_without_a_campaign_has_no_postback_and_skips_empty_optionals(platform: PlatformClient) -> None:
    plain = {**NEW_PLAYER, "campaignCode": None, "lastName": "", "ssn": "", "address": None}
    body = call(platform, "register", plain)
    assert body["success"] is True, body
    assert body["loginResponse"]["affiliatePostBackURL"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"login": ""}, "Enter valid username"),
        ({"login": "abc"}, "Username must be min 4 characters max 15 characters"),
        ({"login": "a" * 16}, "Username must be min 4 characters max 15 characters"),
        ({"login": "new player"}, "Enter alphabets and numeric only"),
        ({"login": "josé12"}, "Enter alphabets and numeric only"),
        ({"password": ""}, "Enter valid password"),
        ({"password": "12345"}, "Password must be min 6 characters max 15 characters"),
        ({"password": "p" * 16}, "Password must be min 6 characters max 15 characters"),
        ({"password": "has space1"}, "Enter alphabets and numeric only"),
        ({"email": ""}, "Enter valid email"),
        ({"email": "not-an-email"}, "Enter valid email"),
        ({"firstName": "A"}, "First name must be min 2 characters max 16 characters"),
        ({"firstName": "A" * 17}, "First name must be min 2 characters max 16 characters"),
        ({"lastName": "B" * 17}, "Last name must be max 16 characters"),
        ({"ssn": "123"}, "SSN must be exactly 10 characters"),
        ({"ssn": "12345678901"}, "SSN must be exactly 10 characters"),
        (address(address="abc"), "Address must be min 5 characters max 25 characters"),
        (address(address="x" * 26), "Address must be min 5 characters max 25 characters"),
        (address(phone="123456"), "Phone must be min 7 characters max 12 characters"),
        (address(phone="1" * 13), "Phone must be min 7 characters max 12 characters"),
        (address(phone="11234abc"), "Enter valid phone"),
    ],
)
def test_register_enforces_every_section_5_rule(platform: PlatformClient, change: dict[str, Any], message: str) -> None:
    body = call(platform, "register", {**NEW_PLAYER, **change})
    assert (body["success"], body["description"]) == (False, message)
    assert message in body["errors"].values()
    assert call(platform, "login", {"login": "newbie1", "password": "secret1"})["success"] is False


def test_register_refuses_a_used_login_in_any_case(platform: PlatformClient) -> None:
    body = call(platform, "register", {**NEW_PLAYER, "login": "DEMO1", "nickname": "DEMO1"})
    assert (body["success"], body["description"]) == (False, "Login already used")


def test_a_registered_account_is_verified_once(platform: PlatformClient) -> None:
    call(platform, "register", NEW_PLAYER)
    token = platform.client.get("/_sandbox/sites/aurora/players/newbie1").json()["verifyToken"]
    first = call(platform, "verifyAccount", {"token": token, "face": "AURORA"})
    assert (first["success"], first["code"]) == (True, "ACCOUNT_VERIFIED")
    again = call(platform, "verifyAccount", {"token": token, "face": "AURORA"})
    assert again["code"] == "ALREADY_VERIFIED"
    unknown = call(platform, "verifyAccount", {"token": "made-up", "face": "AURORA"})
    assert (unknown["success"], unknown["code"]) == (False, "INVALID_TOKEN")


# --- Recovery, captcha, OTP, visitors' lists ----------------------------------------------------


def test_forgot_password_needs_the_matching_email_and_login(platform: PlatformClient) -> None:
    sent = call(platform, "forgotPassword", {"email": "DEMO1@example.com", "login": "demo1"})
    assert (sent["success"], sent["description"]) == (True, "Password sent successfully to the registered Email Id")
    for body in ({"email": "vip7@example.com", "login": "demo1"}, {"email": "x@example.com", "login": "nobody1"}):
        unknown = call(platform, "forgotPassword", body)
        assert (unknown["success"], unknown["description"]) == (False, "Provided Email or Username does not exist")
    invalid = call(platform, "forgotPassword", {"email": "nope", "login": "demo1"})
    assert invalid["description"] == "Enter valid email"


def test_captcha_is_a_fresh_svg_image(platform: PlatformClient) -> None:
    path = ROUTES_BY_NAME["generateCaptcha"].path
    first, second = platform.post(path), platform.post(path)
    assert first.status_code == 200
    assert first.headers["content-type"].startswith("image/svg+xml")
    assert first.text.startswith("<svg") and first.text != second.text


def test_otp_goes_to_a_valid_phone_only(platform: PlatformClient) -> None:
    assert call(platform, "generateOTP", {"phone": "1123456789"})["success"] is True
    short = call(platform, "generateOTP", {"phone": "123"})
    assert short["description"] == "Phone must be min 7 characters max 12 characters"


def test_countries_and_currencies(platform: PlatformClient) -> None:
    codes = {c["code"] for c in call(platform, "getCountries")["countries"]}
    assert {"AR", "IN", "BR", "VE"} <= codes
    currencies = call(platform, "getCurrencies")["currencies"]
    assert currencies[0] == {"code": "INR", "symbol": "Bs."}


def test_contact_works_for_visitors_and_players(platform: PlatformClient) -> None:
    message = {
        "face": "AURORA",
        "firstName": "visitor1",
        "email": "v@example.com",
        "subject": "Hi",
        "userQuestion": "Do you pay out on weekends?",
        "lang": "en",
    }
    sent = call(platform, "contactUs", message)
    assert (sent["success"], sent["description"]) == (
        True,
        "Successfully sent. Our support team will revert back soon.",
    )
    platform.login()
    assert call(platform, "contactUs", message)["success"] is True
    refused = call(platform, "contactUs", {**message, "email": "v@", "subject": ""})
    assert refused["errors"] == {"email": "Please enter valid email", "subject": "Please enter subject"}


def test_affiliate_hits_are_accepted(platform: PlatformClient) -> None:
    hit = {"campaignId": "C1", "campaignType": "affiliate", "languageCode": "es"}
    assert call(platform, "affiliateHit", hit)["success"] is True


# --- Profile and password ----------------------------------------------------------------------


def test_profile_shows_the_menu_flags(sandbox: TestClient[Any]) -> None:
    nocash = PlatformClient(sandbox)
    nocash.login("nocash", "nocash123")
    profile = call(nocash, "getProfile")
    assert (profile["deposits"], profile["withdrawal"]) == (0, 0)
    assert set(profile["address"]) == {"address", "city", "state", "zipCode", "country", "phone"}


def test_profile_update_changes_the_profile(player: PlatformClient) -> None:
    body = call(player, "updateProfile", PROFILE)
    assert (body["success"], body["description"]) == (True, "Profile updated successfully")
    profile = call(player, "getProfile")
    assert (profile["email"], profile["firstName"], profile["address"]["city"]) == (
        "lucia@example.com",
        "Lucia",
        "Chilecito",
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"nickname": "ab"}, "Username must be min 4 characters max 15 characters"),
        ({"email": "lucia"}, "Enter valid email"),
        ({"firstName": ""}, "Enter valid first name"),
        ({"lastName": ""}, "Enter valid last name"),
        ({"address": {**PROFILE["address"], "phone": "38-25"}}, "Enter valid Phone"),
        ({"address": {**PROFILE["address"], "city": ""}}, "Enter valid city"),
        ({"address": {"city": "Chilecito", "phone": "3825123456"}}, "Enter valid country"),
    ],
)
def test_profile_update_rules(player: PlatformClient, change: dict[str, Any], message: str) -> None:
    body = call(player, "updateProfile", {**PROFILE, **change})
    assert (body["success"], body["description"]) == (False, message)
    assert call(player, "getProfile")["email"] == "demo1@example.com"


def test_password_change(player: PlatformClient) -> None:
    wrong = call(player, "updatePassword", {"oldPassword": "wrong12", "newPassword": "newpass1"})
    assert (wrong["success"], wrong["description"]) == (False, "Invalid argument")
    same = call(player, "updatePassword", {"oldPassword": "demo123", "newPassword": "demo123"})
    assert same["description"] == "Old Password and  New Password Cannot be the same"
    blank = call(player, "updatePassword", {"oldPassword": "", "newPassword": "newpass1"})
    assert blank["description"] == "Enter old password"
    assert call(player, "updatePassword", {"oldPassword": "demo123", "newPassword": "newpass1"})["success"] is True
    assert call(player, "login", {"login": "demo1", "password": "demo123"})["success"] is False
    assert call(player, "login", {"login": "demo1", "password": "newpass1"})["success"] is True


# --- Documents ---------------------------------------------------------------------------------


def test_uploaded_documents_are_listed(player: PlatformClient) -> None:
    scan = ("pan.png", b"\x89PNG" + b"0" * 1_000_000, "image/png")
    pan = upload(player, {"file": scan}, {"docType": "3", "docNumber": "ABCDE1234F"})
    assert pan["success"] is True
    named = upload(player, {"file": ("bill.pdf", b"%PDF-1.4 bill", "application/pdf")}, {"docType": "Address Proof"})
    assert named["success"] is True
    documents = call(player, "getDocuments")["documents"]
    assert [(d["docType"], d["docNumber"], d["fileName"]) for d in documents] == [
        ("Pan Card", "ABCDE1234F", "pan.png"),
        ("Address Proof", None, "bill.pdf"),
    ]
    assert all(d["status"] == "Pending" for d in documents)


def test_a_20_mb_document_uploads(player: PlatformClient) -> None:
    big = upload(player, {"file": ("scan.tif", b"\0" * (20 * 1024 * 1024), "image/tiff")}, {"docType": "1"})
    assert big["success"] is True, big
    assert call(player, "getDocuments")["documents"][0]["docType"] == "Id Proof"


def test_uploads_without_a_file_or_with_an_unknown_type_are_refused(player: PlatformClient) -> None:
    no_file = upload(player, None, {"docType": "1"})
    assert (no_file["success"], no_file["code"]) == (False, "FILE_REQUIRED")
    bad_type = upload(player, {"file": ("id.png", b"png", "image/png")}, {"docType": "7"})
    assert (bad_type["success"], bad_type["code"]) == (False, "INVALID_DOC_TYPE")
    assert call(player, "getDocuments")["documents"] == []


# --- Providers, games, stats ---------------------------------------------------------------------


def test_provider_lists_before_and_after_login(sandbox: TestClient[Any]) -> None:
    pampa = PlatformClient(sandbox, site="pampa")
    visitor = {p["name"]: p["status"] for p in pampa.post(ROUTES_BY_NAME["getProviders"].path, {}).json()}
    assert (visitor["caballo"], visitor["bti"]) == (0, 1)
    pampa.login("pampa1", "pampa123")
    path = ROUTES_BY_NAME["getPlayerProviderList"].path
    player = {p["name"]: p["status"] for p in pampa.post(path, {"role": 0, "loginName": "pampa1"}).json()}
    assert (player["caballo"], player["evenbetpoker"], player["bti"]) == (False, False, True)
    sandbox.put("/_sandbox/sites/pampa/providers/caballo", json={"enabled": True})
    switched = {p["name"]: p["status"] for p in pampa.post(path, {"role": 0, "loginName": "pampa1"}).json()}
    assert switched["caballo"] is True


def test_games_and_launch_urls_follow_the_provider_switches(player: PlatformClient) -> None:
    assert "mancala" in {g["provider"] for g in call(player, "getGames")["games"]}
    assert "mancala" in call(player, "getLaunchURLS")["urls"]
    player.client.put("/_sandbox/sites/aurora/providers/mancala", json={"enabled": False})
    assert "mancala" not in {g["provider"] for g in call(player, "getGames")["games"]}
    assert "mancala" not in call(player, "getLaunchURLS")["urls"]


def test_poker_tournaments_need_the_poker_provider(player: PlatformClient) -> None:
    assert len(call(player, "getPokerTournamentsList")["tournamentList"]) > 0
    player.client.put("/_sandbox/sites/aurora/providers/evenbetpoker", json={"enabled": False})
    assert call(player, "getPokerTournamentsList")["tournamentList"] == []


def test_stats_and_wagering_come_from_the_players_play(player: PlatformClient) -> None:
    stats = call(player, "getStats")
    assert stats["gamesPlayed"] == 24 and stats["totalBets"] > 0
    wagering = call(player, "getPlayerWageringInfo")
    assert wagering["bonus"] == {"value": 250.0}
    assert wagering["balance"] == {"value": 5000.0}
    assert wagering["remainingBet"] == {"value": 2500.0}


# --- Wallets and the VIP club --------------------------------------------------------------------


def test_balance_lists_every_wallet_real_money_first(player: PlatformClient) -> None:
    values = call(player, "balance")["values"]
    assert [v["wallet"]["name"] for v in values] == ["INR", "PLAYMONEY", "COMPPOINTS"]
    inr = values[0]
    assert (inr["preferred"], inr["symbol"], inr["wallet"]["id"]) == (True, "Bs.", 1)
    assert (inr["cash"], inr["bonus"], inr["cashInPlay"]) == ({"value": 5000.0}, {"value": 250.0}, {"value": 0.0})
    assert set(inr) >= {"bonusInPlay", "lockedBonus"}
    assert values[2]["cash"] == {"value": 1200.0}


def test_play_money_resets_to_10000(player: PlatformClient) -> None:
    assert call(player, "resetPlayMoneyBalance")["success"] is True
    assert wallets(player)["PLAYMONEY"]["cash"] == {"value": 10000.0}


def test_player_levels_and_counters(player: PlatformClient) -> None:
    levels = call(player, "playerLevels")
    assert [level["name"] for level in levels["playerLevelResponses"]][:3] == ["Bronze", "Silver", "Gold"]
    assert {level["period"] for level in levels["playerLevelResponses"]} == {"Hour", "Week", "Month", "Year"}
    for counter in ("weeklyCounter", "monthlyCounter", "yearkyCounter", "hourlyCounter"):
        assert levels[counter]["endDate"] and levels[counter]["compPoints"] == 1200.0
    assert levels["goldCounter"]["compPoints"] == 1200.0


def test_exchange_turns_comp_points_into_cash(player: PlatformClient) -> None:
    rate = call(player, "exchangeRates")["rates"][0]
    assert (rate["currency"], rate["compPoints"], rate["minimumPoints"]) == ("INR", 100, 1000)
    done = call(player, "exchange", {"compPoints": 1000})
    assert (done["success"], done["cashCredited"], done["compPointsLeft"]) == (True, 10.0, 200.0)
    after = wallets(player)
    assert (after["INR"]["cash"], after["COMPPOINTS"]["cash"]) == ({"value": 5010.0}, {"value": 200.0})
    ledger = player.client.get("/_sandbox/sites/aurora/ledger").json()
    entry = ledger[-1]
    assert (entry["login"], entry["kind"], entry["amount"], entry["balanceAfter"]) == (
        "demo1",
        "compPointsExchange",
        "10.00",
        "5010.00",
    )
    assert call(player, "playerLevels")["weeklyCounter"]["compPoints"] == 1200.0, "the level keeps earned points"


def test_exchange_refuses_too_few_or_more_points_than_held(player: PlatformClient) -> None:
    small = call(player, "exchange", {"compPoints": 999})
    assert (small["success"], small["code"]) == (False, "BELOW_MINIMUM")
    too_many = call(player, "exchange", {"compPoints": 1500})
    assert (too_many["success"], too_many["code"]) == (False, "INSUFFICIENT_POINTS")
    assert wallets(player)["COMPPOINTS"]["cash"] == {"value": 1200.0}
    assert wallets(player)["INR"]["cash"] == {"value": 5000.0}


def test_blackjack_league(platform: PlatformClient) -> None:
    boards = call(platform, "leaderboardList")["leaderboards"]
    assert [b["status"] for b in boards] == ["Finished", "Active", "Upcoming"]
    active = {"leaderboardId": boards[1]["id"]}
    table = call(platform, "leaderboardParticipants", active)["participants"]
    assert table == call(platform, "leaderboardParticipants", active)["participants"], "the same table every time"
    assert [p["rank"] for p in table] == list(range(1, len(table) + 1))
    assert table[0]["points"] >= table[-1]["points"] and table[0]["prize"].startswith("Bs.")
    unknown = call(platform, "leaderboardParticipants", {"leaderboardId": "nope"})
    assert unknown["success"] is False


def test_a_control_call_creates_a_verified_player_with_cash(sandbox: TestClient[Any]) -> None:
    created = sandbox.post(
        "/_sandbox/sites/aurora/players", json={"login": "Many01", "password": "many01pw", "cash": "12.5"}
    )
    assert created.status_code == 201 and created.json() == {"login": "many01", "cash": "12.50"}
    player = PlatformClient(sandbox)
    player.login("many01", "many01pw")
    cash = player.post("/api/cashier/balance").json()["values"][0]["cash"]["value"]
    assert cash == 12.5
