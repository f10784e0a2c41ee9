"""The client's view model, fed server messages directly (no terminal, no network)."""

from __future__ import annotations

from maumau.client.model import Model, card_sort_key
from maumau.protocol.messages import ChatLine, GameEvent, TableInfo, View, Welcome

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
    model.apply(GameEvent(1, 6, "card_played", "Ada plays 9H"))
    model.apply(ChatLine("table", "Ada", "gg"))
    model.apply(ChatLine("lobby", "Eve", "hi"))
    assert list(model.log) == ["Ada plays 9H"]
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
