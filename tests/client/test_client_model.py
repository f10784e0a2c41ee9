"""The client's view model, fed server messages directly (no terminal, no network)."""

from __future__ import annotations

from maumau.client.model import Model
from maumau.client.model_moves import card_sort_key
from maumau.client.model_parts import Kept, Read
from maumau.client.model_records import NO_RECORDS, ReplayBook
from maumau.client.model_table import seat_label
from maumau.protocol.messages import (
    ChatLine,
    Error,
    GameEvent,
    Replay,
    Stats,
    TableInfo,
    View,
    Welcome,
)

SEATS = tuple(
    {"name": n, "bot": n != "Ann", "connected": True, "away": False, "ready": True}
    for n in ("Ann", "Ada", "Bert")
)


def table_info(table_id: int = 1, you: int | None = 0) -> TableInfo:
    return TableInfo(table_id, "T", {"variant": "classic"}, SEATS, (), "playing", "Ann", you)


def view(**changes: object) -> View:
    fields: dict[str, object] = dict(
        table=1,
        seq=5,
        seat=0,
        phase="playing",
        round=1,
        dealer=2,
        turn=0,
        direction=1,
        top="9H",
        named=None,
        penalty=0,
        penalty_kind=None,
        hand_counts=(3, 5, 5),
        scores=(0, 0, 0),
        target=150,
        stock=10,
        discard=3,
        windows=(),
        last_round=None,
        winner=None,
        hand=("KS", "9C", "JH"),
        drawn=None,
        legal=(
            {"kind": "play", "card": "9C"},
            *({"kind": "play", "card": "JH", "named": s} for s in "SHDC"),
            {"kind": "draw"},
        ),
        turn_deadline_ms=None,
    )
    fields.update(changes)
    return View(**fields)  # type: ignore[arg-type]


def test_legal_cards_and_names_come_from_the_view() -> None:
    model = Model()
    model.apply(Welcome(1, "s", "r", "Ann", False))
    model.apply(table_info())
    model.apply(view())
    assert model.my_turn
    assert model.hand() == sorted(["KS", "9C", "JH"], key=card_sort_key) == ["KS", "JH", "9C"]
    assert model.playable() == {"9C", "JH"}
    assert model.needs_name("JH") and not model.needs_name("9C")
    assert model.names_for("JH") == ["S", "H", "D", "C"]
    assert not model.can_arm()  # three cards: nothing to arm yet
    model.apply(view(hand=("9C", "JH"), hand_counts=(2, 5, 5)))
    assert model.can_arm()


def test_log_chat_and_round_scores() -> None:
    model = Model()
    model.apply(table_info())
    model.apply(GameEvent(1, 6, "card_played", seat=1, card="9H", cards_left=4))
    model.apply(ChatLine("table", "Ada", "gg"))
    model.apply(ChatLine("lobby", "Eve", "hi"))
    assert list(model.log) == ["Ada plays 9♥"]
    assert list(model.chat) == ["Ada: gg"] and list(model.lobby_chat) == ["Eve: hi"]
    last = {
        "round": 1,
        "winner": 1,
        "points": 30,
        "hands": (("KS",), (), ("9C",)),
        "hand_points": (10, 0, 9),
        "scores": (0, 30, 0),
    }
    model.apply(view(phase="round_over", last_round=last))
    model.apply(view(phase="round_over", last_round=last, seq=7))
    assert model.score_history == [(0, 30, 0)]


def test_messages_about_a_table_we_left_are_ignored() -> None:
    model = Model()
    model.apply(Welcome(1, "s", "r", "Ann", False))
    model.apply(table_info())
    model.apply(view())
    model.left_table()
    assert not model.apply(view(seq=9))
    assert not model.apply(table_info(you=None))
    assert model.table is None and model.view is None
    assert model.apply(table_info(table_id=2))  # a new table
    assert model.table is not None and model.table.id == 2


def test_after_saying_mau_nothing_more_is_owed() -> None:
    model = Model()
    model.apply(table_info())
    said = {"id": 7, "seat": 0, "final": False, "called": "mau", "catchable": False}
    model.apply(
        view(
            turn=1,
            hand=("KS",),
            hand_counts=(1, 5, 5),
            windows=(said,),
            legal=({"kind": "say_mau", "call": "maumau"},),
        )
    )
    assert not model.owes_call() and not model.can_upgrade()
    model.apply(
        view(
            turn=1,
            hand=("JS",),
            hand_counts=(1, 5, 5),
            windows=(said,),
            legal=({"kind": "say_mau", "call": "maumau"},),
            seq=6,
        )
    )
    assert not model.owes_call() and model.can_upgrade()


def test_a_rematch_is_a_new_match() -> None:
    model = Model()
    model.apply(table_info())
    model.apply(view(round=3))
    first = model.match_no
    model.apply(view(round=3, phase="match_over", seq=8))
    model.apply(view(round=1, seq=9))
    assert model.match_no == first + 1
    assert model.score_history == []


# --- records: bot levels, refusals, replay pages ---------------------------------------


def test_bots_are_named_with_their_level() -> None:
    seats = (
        {"name": "Ann", "bot": False, "connected": True, "away": False, "ready": True},
        {
            "name": "Ada",
            "bot": True,
            "connected": True,
            "away": False,
            "ready": True,
            "level": "hard",
        },
        {"name": "Bert", "bot": True, "connected": True, "away": False, "ready": True},
        {"name": None, "bot": False, "connected": False, "away": False, "ready": False},
    )
    model = Model()
    model.apply(TableInfo(1, "T", {"variant": "classic"}, seats, (), "waiting", "Ann", 0))
    assert model.names() == ["Ann", "Ada (hard)", "Bert (bot)", "Seat 4"]
    assert seat_label(seats[3]) == "(free)"


def test_a_server_without_records_is_said_plainly() -> None:
    model = Model()
    model.apply(Error("no_store", "no records here", "get_stats"))
    assert model.records_errors["get_stats"] == NO_RECORDS
    assert "keeps no records" in NO_RECORDS
    model.apply(Stats((), None))
    assert "get_stats" not in model.records_errors


def page(start: int, count: int, total: int, rounds: dict[int, int] | None = None) -> Replay:
    """Steps ``start`` .. ``start + count - 1``; ``rounds`` maps a step to the round
    that starts there (round 1 starts at 0)."""
    starts = sorted({0: 1, **(rounds or {})}.items())

    def round_of(n: int) -> int:
        return max(r for s, r in starts if s <= n)

    steps = tuple(
        {
            "n": n,
            "round": round_of(n),
            "phase": "playing",
            "turn": 0,
            "direction": 1,
            "top": "7H",
            "named": None,
            "penalty": 0,
            "hands": (("7S",), ("8S",)),
            "scores": (0, 0),
            "stock": 10,
        }
        for n in range(start, min(total, start + count))
    )
    return Replay(9, "T", "classic", ("Ann", "Ada"), (False, True), total, start, steps)


def test_replay_pages_are_asked_for_once_and_aligned() -> None:
    book = ReplayBook(9)
    assert book.wants(0) == 0
    assert book.wants(10) is None  # page 0 is already asked for
    book.apply(page(0, 50, 130))
    assert book.total == 130 and book.last == 129 and not book.pending
    assert book.wants(49) is None  # here
    assert book.wants(129) == 100
    assert book.wants(130) is None  # past the end
    book.apply(page(100, 50, 130))
    assert book.wants(75) == 50


def test_after_a_short_page_the_missing_steps_are_asked_for() -> None:
    book = ReplayBook(9)
    book.wants(0)
    book.apply(page(0, 20, 130))  # the server sent fewer steps to keep the frame small
    assert book.wants(20) == 20


def test_a_reconnect_asks_again() -> None:
    model = Model()
    model.replay = ReplayBook(9)
    assert model.replay.wants(0) == 0
    model.apply(Welcome(1, "s", "r", "Ann", True))
    assert model.replay.wants(0) == 0


def test_a_refused_replay_is_kept_in_words() -> None:
    model = Model()
    model.replay = ReplayBook(9)
    model.replay.wants(0)
    model.apply(Error("no_such_match", "there is no match 9", "get_replay"))
    assert model.replay.error == "There is no match 9" and not model.replay.pending


def test_round_starts_are_found_or_the_missing_step_named() -> None:
    book = ReplayBook(9)
    book.wants(0)
    book.apply(page(0, 50, 130, {40: 2, 90: 3}))
    assert book.next_round(0) == (40, None)
    assert book.previous_round(45) == (40, None)  # the start of this round
    assert book.previous_round(40) == (0, None)  # at a start: the round before
    assert book.previous_round(0) == (0, None)
    assert book.next_round(41) == (None, 50)  # step 50 is not here yet
    book.wants(50)
    book.apply(page(50, 50, 130, {40: 2, 90: 3}))
    assert book.next_round(41) == (90, None)
    assert book.next_round(95) == (None, 100)
    book.wants(100)
    book.apply(page(100, 50, 130, {40: 2, 90: 3}))
    assert book.next_round(95) == (None, None)  # no later round
    late = ReplayBook(9)
    late.wants(100)
    late.apply(page(100, 50, 130, {40: 2, 90: 3}))
    assert late.previous_round(100) == (None, 99)  # is 100 a round start? needs 99


# --- the hint under the hand, and the connection's state ----------------------------


def seated(**changes: object) -> Model:
    model = Model()
    for message in (Welcome(3, "s", "r", "Ann", False), table_info(), view(**changes)):
        model.apply(message)
    return model


def test_hint_under_a_wild_draw_four_offers_take_and_challenge_never_draw() -> None:
    wd4 = dict(top="W4", named="R", penalty=4, penalty_kind="wild_draw_four")
    model = seated(**wd4, legal=({"kind": "draw"}, {"kind": "challenge"}))
    assert model.hint(None, False) == "t takes 4, x challenges the Wild Draw Four"
    model = seated(**wd4, legal=({"kind": "draw"},))  # the table allows no challenge
    assert model.hint(None, False) == "t takes 4"


def test_hint_under_a_draw_two_names_the_answers_or_the_take() -> None:
    two = dict(top="G+2", penalty=2, penalty_kind="draw_two", hand=("R+2", "G5"))
    model = seated(**two, legal=({"kind": "play", "card": "R+2"}, {"kind": "draw"}))
    assert model.hint(None, False) == "only a Draw Two can answer (R+2); t takes 2"
    model = seated(**two, legal=({"kind": "draw"},))
    assert model.hint(None, False) == "t takes 2"


def test_hint_when_nothing_fits_and_off_turn() -> None:
    assert seated(legal=({"kind": "draw"},)).hint(None, False) == "no card fits: draw (d)"
    assert seated(turn=1, legal=()).hint(None, False) == ""


def test_hint_in_ascii_has_no_symbols() -> None:
    seven = dict(top="7H", penalty=2, penalty_kind="seven", hand=("7S", "KS"))
    model = seated(**seven, legal=({"kind": "play", "card": "7S"}, {"kind": "draw"}))
    assert (
        model.hint("mau", True)
        == '"Mau" armed for your next play  -  only a 7 can answer (7S); t takes 2'
    )
    assert model.hint("mau", True).isascii()


def test_offline_from_a_drop_until_the_next_welcome() -> None:
    model = seated()
    model.lost_connection()
    assert model.offline
    assert model.hint(None, False) == "the connection is down: moves wait until it is back"
    model.apply(Welcome(3, "s", "r", "Ann", True))
    assert not model.offline


def test_every_name_the_model_shows_is_kept_by_one_of_its_parts() -> None:
    model = Model()
    shown = [name for name, value in vars(Model).items() if isinstance(value, Kept | Read)]
    assert {"table", "view", "hand", "my_turn", "lobby_chat", "tournament", "stats"} <= set(shown)
    for name in shown:
        getattr(model, name)  # each names a part, and a member of it, that exist
    info = table_info()
    model.table = info
    assert model.table_part.table is info and model.names() == ["Ann", "Ada (bot)", "Bert (bot)"]
    model.records_errors["get_stats"] = "no"
    assert model.records_part.errors == {"get_stats": "no"}
