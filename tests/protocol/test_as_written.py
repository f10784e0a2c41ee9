"""The rules as written: the preset of the seeds' literal reading, the call window that
closes when the next player acts, and the one declaration of what departs from them
(``maumau.protocol.as_written``) held to the server's settings, the client's defaults,
the help and ``docs/rules.md``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from maumau.client.screens.help_rules import DEFAULTS, departures
from maumau.protocol.as_written import AS_WRITTEN, DEFAULTS_DEPART, MARK, departs
from maumau.protocol.as_written import departures as departing
from maumau.server.rules import IllegalAction, Settings
from maumau.server.rules.events import CallWindowClosed, Caught, Reversed, Skipped
from support.positions import catch, draw, play, say, table, time_passes

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("classic", "american")
STRICT = {"mau_window_minimum": False}


# --- the declaration, against the server's settings ---------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rule_as_written_is_a_setting_of_its_game(variant: str) -> None:
    defaults = Settings.defaults(variant)  # type: ignore[arg-type]
    for name, literal in AS_WRITTEN[variant].items():
        assert name in defaults, f"{name} is not a setting of {variant}"
        assert type(literal) is type(defaults[name]), name


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_preset_plays_every_rule_at_its_literal_reading(variant: str) -> None:
    preset = Settings.as_written(variant, seats=3)  # type: ignore[arg-type]
    assert preset.variant == variant and preset.seats == 3
    for name, literal in AS_WRITTEN[variant].items():
        assert getattr(preset, name) == literal, name
    assert preset.mau_window_minimum is False  # the window closes when the next player acts
    assert departing(preset.to_dict()) == []
    # What is not a rule keeps its default.
    assert preset.turn_timeout_s == Settings.create(variant).turn_timeout_s  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_defaults_depart_where_the_declaration_says(variant: str) -> None:
    defaults = Settings.defaults(variant)  # type: ignore[arg-type]
    differing = [n for n, v in AS_WRITTEN[variant].items() if defaults[n] != v]
    assert differing == list(DEFAULTS_DEPART[variant])
    assert departing(Settings.create(variant).to_dict()) == differing  # type: ignore[arg-type]


def test_the_clients_defaults_are_the_servers() -> None:
    for variant in VARIANTS:
        server = Settings.create(variant).to_dict()  # type: ignore[arg-type]
        del server["variant"]
        assert DEFAULTS[variant] == server


def test_what_departs_is_told_apart_by_value_and_kind() -> None:
    assert departs("classic", "jack_on_jack", True)
    assert not departs("classic", "jack_on_jack", False)
    assert departs("classic", "mau_penalty", 3)
    assert departs("classic", "mau_penalty", True)  # not a number
    assert not departs("classic", "turn_timeout_s", 5)  # a clock, not a rule
    assert not departs("classic", "stack_draw_two", True)  # not a rule of this game
    assert departs("american", "target_score", 150)
    # A match of so many deals is not played to its target: only the deals depart.
    series = {"variant": "classic", "target_score": 100_000, "deals": 3}
    assert departing(series) == ["deals"]
    assert MARK == "*" and MARK.isascii()


# --- the engine plays them ------------------------------------------------------------------


def test_as_written_no_jack_goes_on_a_jack() -> None:
    state = table(hands=["JS QH", "8D 9D"], top="JH", named="S", **AS_WRITTEN["classic"])
    with pytest.raises(IllegalAction) as refused:
        play(state, 0, "JS", named="H")
    assert refused.value.code == "does_not_match"


def test_as_written_an_american_reverse_with_two_players_reverses() -> None:
    written = table("american", hands=["RR R1 R2", "G5 G6"], top="R9", **AS_WRITTEN["american"])
    events = play(written, 0, "RR")
    assert any(isinstance(e, Reversed) for e in events)
    assert not any(isinstance(e, Skipped) for e in events)
    assert written.turn == 1 and written.direction == -1
    default = table("american", hands=["RR R1 R2", "G5 G6"], top="R9")
    events = play(default, 0, "RR")
    assert any(isinstance(e, Skipped) for e in events) and default.turn == 0


def test_the_window_closes_when_the_next_player_acts() -> None:
    state = table(hands=["QH KS", "KH 10D 9D", "AC AD 8S"], top="10H", stock="7C 8C", **STRICT)
    play(state, 0, "QH")  # no Mau said
    [window] = state.windows
    assert not window.final
    events = draw(state, 1)  # the next player acts, long before any time has passed
    closed = [e for e in events if isinstance(e, CallWindowClosed)]
    assert closed == [CallWindowClosed(0, window.id)]
    assert state.windows == []
    with pytest.raises(IllegalAction) as refused:
        catch(state, 2, 0)
    assert refused.value.code == "nothing_to_catch"


def test_the_window_stays_open_however_long_until_the_next_player_acts() -> None:
    state = table(hands=["QH KS", "KH 10D 9D", "AC AD 8S"], top="10H", stock="7C 8C", **STRICT)
    play(state, 0, "QH")
    assert time_passes(state) == []  # mau_window_ms passed: nothing closes
    assert state.windows
    events = catch(state, 2, 0)
    assert any(isinstance(e, Caught) for e in events)


def test_a_call_in_time_still_protects() -> None:
    state = table(hands=["QH KS", "KH 10D 9D", "AC AD 8S"], top="10H", stock="7C 8C", **STRICT)
    play(state, 0, "QH")
    say(state, 0)
    draw(state, 1)
    assert state.windows == []


def test_by_default_the_window_outlasts_the_next_action_until_its_time() -> None:
    state = table(hands=["QH KS", "KH 10D 9D", "AC AD 8S"], top="10H", stock="7C 8C")
    play(state, 0, "QH")
    draw(state, 1)
    assert state.windows, "the least time has not passed"
    assert any(isinstance(e, Caught) for e in catch(state, 2, 0))


def test_the_players_own_move_after_an_8_leaves_the_window_open() -> None:
    # Two players: the 8 skips Bob, so Ann is next; her own move does not end her
    # window, Bob's does.
    state = table(hands=["8H KS", "KH 10D 9D"], top="10H", stock="7C 8C 9C", **STRICT)
    play(state, 0, "8H")
    assert state.turn == 0
    draw(state, 0)  # 7C: it does not fit, the turn passes
    assert state.windows and state.turn == 1
    events = draw(state, 1)
    assert any(isinstance(e, CallWindowClosed) for e in events)
    assert state.windows == []


def test_a_last_cards_window_still_takes_its_time() -> None:
    state = table(hands=["JS", "KH 10D 9D", "AC AD 8S"], top="10S", stock="7C 8C", **STRICT)
    state.last_call[0] = "mau"  # said only Mau for the Jack it keeps
    play(state, 0, "JS", named="D")
    assert state.phase == "ending" and state.windows[0].final
    assert any(isinstance(e, Caught) for e in catch(state, 1, 0))


# --- the help says each departure ------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_help_has_a_sentence_for_every_departure(variant: str) -> None:
    for name, literal in AS_WRITTEN[variant].items():
        if name == "target_score":
            other: bool | int = literal + 50  # type: ignore[operator]
        elif isinstance(literal, bool):
            other = not literal
        else:
            other = int(literal) + 1
        settings = {**Settings.as_written(variant).to_dict(), name: other}  # type: ignore[arg-type]
        assert len(departures(settings)) == 1, name
    assert departures(Settings.as_written(variant).to_dict()) == []  # type: ignore[arg-type]
    assert len(departures(Settings.create(variant).to_dict())) == len(  # type: ignore[arg-type]
        DEFAULTS_DEPART[variant]
    )


# --- docs/rules.md lists them ----------------------------------------------------------------


def departures_section() -> str:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index("## Where a table departs from the seeds")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_docs_rules_lists_every_departure_of_the_default_settings() -> None:
    section = departures_section()
    for variant in VARIANTS:
        for name in DEFAULTS_DEPART[variant]:
            assert f"`{name}`" in section, f"docs/rules.md does not list {name}"
    # ...and each of its bullets that names settings names one that departs.
    departing_names = {n for names in DEFAULTS_DEPART.values() for n in names}
    settings = set(Settings.defaults("classic")) | set(Settings.defaults("american"))
    for bullet in re.findall(r"^- \*\*.*?\*\*[^\n]*(?:\n  [^\n]*)*", section, re.M):
        named = [n for n in re.findall(r"`([a-z_]+)`", bullet) if n in settings]
        if named:
            assert departing_names & set(named), bullet
