"""The reality check's decisions: when one is due, and the figures read from the platform's answers."""

from __future__ import annotations

import msgspec

from gateway.state.reality import due_check, session_moves, wallet_cash

SIGNED_IN = 1_700_000_000.0


def test_a_check_falls_due_each_period_after_sign_in_and_a_late_look_sees_one_not_a_stack() -> None:
    assert due_check(SIGNED_IN, SIGNED_IN + 59, 60) == 0
    assert due_check(SIGNED_IN, SIGNED_IN + 60, 60) == 1
    assert due_check(SIGNED_IN, SIGNED_IN + 185, 60) == 3  # one check, numbered for the newest
    assert due_check(0, SIGNED_IN, 60) == 0  # never signed in


def test_the_sessions_deposits_count_once_the_platform_approved_them_and_nothing_from_before() -> None:
    body = msgspec.json.encode(
        {
            "deposits": [
                {"startDate": "2023-11-14T22:20:00Z", "cashAmount": 1000, "bonus": 0, "status": "Approved"},
                {"startDate": "2023-11-14T22:21:00Z", "cashAmount": 50, "bonus": 0, "status": "Pending"},
                {"startDate": "2023-11-14T20:00:00Z", "cashAmount": 700, "bonus": 0, "status": "Approved"},
            ],
            "cashouts": [
                {
                    "createdOn": "2023-11-14T22:30:00Z",
                    "amount": 300,
                    "cancelledAmount": 100,
                    "paidAmount": 0,
                    "status": "Pending",
                },
                {
                    "createdOn": "2023-11-14T22:31:00Z",
                    "amount": 90,
                    "cancelledAmount": 90,
                    "paidAmount": 0,
                    "status": "Cancelled",
                },
            ],
        }
    )
    assert session_moves(body, SIGNED_IN) == (1000, 200)
    assert session_moves(b'{"success": false, "description": "no"}', SIGNED_IN) is None


def test_a_deposit_in_the_sign_ins_own_second_counts() -> None:
    """The platform stamps its history to the second: a deposit made 0.3 s after a sign-in at
    x.6 s carries the second x, before the sign-in's instant, and is still the session's."""
    signed_in = SIGNED_IN + 0.6  # 2023-11-14T22:13:20.6Z
    body = msgspec.json.encode(
        {
            "deposits": [{"startDate": "2023-11-14T22:13:20Z", "cashAmount": 1000, "bonus": 0, "status": "Approved"}],
            "cashouts": [],
        }
    )
    assert session_moves(body, signed_in) == (1000, 0)


def test_the_balance_is_the_skins_currency_wallets_cash() -> None:
    wallets = [
        {"wallet": {"id": 1, "name": "PLAYMONEY"}, "preferred": True, "cash": {"value": 9}},
        {"wallet": {"id": 2, "name": "INR"}, "cash": {"value": 1500.5}},
    ]
    assert wallet_cash(msgspec.json.encode({"values": wallets}), "INR") == 1500.5
    assert wallet_cash(b'{"success": false, "code": "SESSION_EXPIRED"}', "INR") is None
