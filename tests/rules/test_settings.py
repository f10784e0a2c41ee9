"""Table settings: defaults per variant, and clear rejection of bad input."""

from __future__ import annotations

import pytest

from maumau.server.rules import Settings, SettingsError


def test_classic_defaults_match_the_rules() -> None:
    s = Settings.create("classic")
    assert (s.target_score, s.mau_penalty, s.mau_window_ms) == (150, 2, 1500)
    assert (s.turn_timeout_s, s.reconnect_grace_s, s.lag_compensation_max_ms) == (45, 60, 200)
    assert s.jack_on_jack is True
    assert s.reverse_skips_with_two is False
    assert s.false_catch_penalty == 0
    assert s.lag_compensation is False
    assert s.hand_size == 5


def test_american_defaults_match_the_rules() -> None:
    s = Settings.create("american")
    assert s.target_score == 500
    assert s.reverse_skips_with_two is True
    assert s.stack_draw_two is False
    assert s.wild_draw_four_challenge is False
    assert s.hand_size == 7
    assert "jack_on_jack" not in s.to_dict()
    assert "stack_draw_two" not in Settings.create("classic").to_dict()


def test_american_seats_two_to_ten() -> None:
    assert Settings.create("american", seats=10).seats == 10
    with pytest.raises(SettingsError, match="2 to 10 players"):
        Settings.create("american", seats=11)


@pytest.mark.parametrize(
    ("data", "setting", "words"),
    [
        ({"variant": "poker"}, "variant", "classic, american"),
        ({"colour_blind": True}, "colour_blind", "not a table setting"),
        ({"seats": 5}, "seats", "2 to 4"),
        ({"seats": "4"}, "seats", "whole number"),
        ({"seats": True}, "seats", "whole number"),
        ({"target_score": 0}, "target_score", "between 1"),
        ({"mau_penalty": 0}, "mau_penalty", "between 1 and 10"),
        ({"mau_window_ms": 50}, "mau_window_ms", "between 100"),
        ({"jack_on_jack": 1}, "jack_on_jack", "true or false"),
        ({"variant": "american", "jack_on_jack": False}, "jack_on_jack", "house rule of classic"),
        ({"stack_draw_two": True}, "stack_draw_two", "house rule of american"),
    ],
)
def test_bad_settings_are_rejected_naming_the_setting(
    data: dict[str, object], setting: str, words: str
) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_dict(data)
    assert info.value.setting == setting
    assert words in str(info.value)
    assert str(info.value).startswith(setting)


def test_settings_round_trip_through_a_dict() -> None:
    s = Settings.create("american", seats=6, stack_draw_two=True, lag_compensation=True)
    assert Settings.from_dict(s.to_dict()) == s


def test_settings_are_immutable() -> None:
    s = Settings.create("classic")
    with pytest.raises(AttributeError):
        s.seats = 3  # type: ignore[misc]
