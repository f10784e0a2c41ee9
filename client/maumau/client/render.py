"""Drawing the table as Rich text, from the view model alone.

Each function returns a :class:`rich.text.Text` for one area of the table screen.
Nothing is said by colour alone: the player on turn has a ``▶`` (``>`` in ASCII),
"MAU!" is a word, suits keep their symbols (or letters in ASCII) when coloured.
The replay screen's areas (every hand revealed, the pile, the title) are drawn here
too, from a :class:`~maumau.client.model.ReplayBook` step, and the few words the
records screens share (a finish time, a count, a game's name).
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from maumau.protocol.sentences import seat_name

from .i18n import _, ngettext, pgettext
from .model import Model, is_red, number_setting
from .model_moves import card_sort_key, label, suit_words
from .model_records import ReplayBook
from .model_table import seat_label

CARD_WIDTH = 7  # a card box: 5 characters of face between two borders


def _marks(ascii_only: bool) -> dict[str, str]:
    if ascii_only:
        return {
            "turn": ">",
            "cw": "-> " + _("clockwise"),
            "ccw": "<- " + _("counter-clockwise"),
            "bar": "#",
            "empty": ".",
            "next": ">",
            "back": "<",
            "down": "v",
            "up": "^",
        }
    return {
        "turn": "▶",
        "cw": "↻ " + _("clockwise"),
        "ccw": "↺ " + _("counter-clockwise"),
        "bar": "█",
        "empty": "░",
        "next": "→",
        "back": "←",
        "down": "↓",
        "up": "↑",
    }


def card_style(code: str, legal: bool, selected: bool) -> str:
    colour = ""
    if code[0] in "RYGB" and code not in ("W", "W4"):
        colour = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}[code[0]]
    elif is_red(code):
        colour = "red"
    style = f"bold {colour}".strip() if legal else f"dim {colour}".strip()
    if selected:
        style += " reverse"
    return style


def title(model: Model, ascii_only: bool, width: int = 80) -> Text:
    """The table's title bar: its name, game, round and target, and who I am; the
    table's part is cut (with an ellipsis) so that the line fits ``width``. A match
    of so many deals (a tournament's series: ``deals`` in the settings, its target
    then meaning nothing) says which deal of how many instead of round and target."""
    text = Text(" maumau  ", style="bold")
    table = model.table
    if model.seat is not None:
        you = _("you: {name}").format(name=model.name)
    else:
        you = _("watching as {name}").format(name=model.name)
    if table is not None:
        game = _("Mau Mau") if model.is_classic() else _("American Mau-Mau")
        if len(game) + len(table.name) + len(you) + 40 > width:
            game = game_name(model.variant())
        target = table.settings.get("target_score", "?")
        deals = match_deals(model)
        # Before the first deal there is no round to name: the table waits.
        round_no = model.view.round if model.view else None
        where = (
            _("round {number}").format(number=round_no) if round_no is not None else _("waiting")
        )
        if deals and round_no is not None:
            length = _("deal {number} of {deals}").format(number=round_no, deals=deals)
            where = ""
        elif deals:
            length = ngettext("{n} deal", "{n} deals", deals).format(n=deals)
        else:
            length = _("to {target}").format(target=target)
        dot = "-" if ascii_only else "·"
        room = width - 1 - len(text.plain) - len(you) - 1
        text.append(_fit_title(table.name, [game, where, length], f" {dot} ", room, ascii_only))
    pad = max(1, width - 1 - len(text.plain) - len(you))
    text.append(" " * pad + you)
    return text


def _fit_title(name: str, parts: list[str], joint: str, room: int, ascii_only: bool) -> str:
    """The table's name and ``parts`` (game, round, length) in ``room`` columns: the
    name gives way first (cut, to four letters at least), then the parts from the
    front (the game, then the round); what is shown is never cut in the middle
    ("to 500" never becomes "to 5...")."""
    shown = [part for part in parts if part]
    while True:
        rest = joint.join(shown)
        left = room - len(rest) - (len(joint) if rest else 0)
        if len(name) <= left:
            return joint.join([name, *shown])
        if left >= 4 or len(shown) <= 1:
            return joint.join([_fit(name, max(1, left), ascii_only), *shown])[: max(0, room)]
        shown = shown[1:]


def opponents(model: Model, ascii_only: bool, width: int = 80, header: bool = True) -> Text:
    """Every other seat: name, cards, points, turn marker, MAU!, bot/away/offline.

    The seats keep their places: in seat order from the one after mine
    (:func:`opponent_order`), the direction of play shown by arrows. Up to three
    opponents are boxes side by side (arrows between them); more are a list in
    columns, one line each, whose ``header`` (if asked for) names the columns and
    points the way play goes down them. Nothing is wider than ``width``."""
    view, table = model.view, model.table
    text = Text()
    if table is None:
        return text
    if view is None:
        return waiting_room(model, ascii_only, width)
    marks = _marks(ascii_only)
    rows = _opponent_rows(model)
    forward = view.direction == 1
    if len(rows) <= 3:
        boxes = _opponent_boxes(rows, marks, ascii_only, width, forward)
        if boxes is not None:
            return boxes
    return _opponent_list(rows, marks, ascii_only, width, forward, header)


OpponentRow = tuple[int, str, int, int, bool, str, str]
"""seat, name, cards, points, on turn, MAU mark, state (away or offline)."""


def opponent_order(seats: int, me: int | None) -> list[int]:
    """The seats to draw, in seat order starting with the one after mine (every seat,
    from the first, for a spectator). The order never depends on the direction of
    play: a 9 or a Reverse turns the arrows, not the seats."""
    if me is None:
        return list(range(seats))
    return [(me + i) % seats for i in range(1, seats)]


def _opponent_rows(model: Model) -> list[OpponentRow]:
    view, table = model.view, model.table
    assert view is not None and table is not None
    names = model.names()
    calls = {w["seat"]: w for w in view.windows if not w["final"]}
    rows = []
    for seat in opponent_order(len(view.hand_counts), view.seat):
        info = table.seats[seat]
        turn = view.phase == "playing" and view.turn == seat
        count = view.hand_counts[seat]
        state = ""
        if info["away"]:
            # NOTE: an opponent's state in a box of the table: at most 4 letters.
            state = pgettext("opponent state, 4 letters", "away")
        elif not info["connected"]:
            # NOTE: an opponent's state (offline) in a box of the table: at most 4 letters.
            state = pgettext("opponent state, 4 letters", "off")
        mau = ""
        if count == 1:
            window = calls.get(seat)
            said = window is not None and window["called"]
            # NOTE: an opponent with one card who said Mau (MAU!) or not yet (MAU?).
            mau = pgettext("badge", "MAU!") if said or window is None else pgettext("badge", "MAU?")
        rows.append((seat, names[seat], count, view.scores[seat], turn, mau, state))
    return rows


def _fit(name: str, width: int, ascii_only: bool) -> str:
    """``name`` in at most ``width`` columns, a cut one ending in an ellipsis."""
    if len(name) <= width:
        return name
    return name[: max(0, width - 1)] + ("~" if ascii_only else "…")


def _box_body(count: int, score: int, badge: str, width: int) -> tuple[str, str, str]:
    """The inside of a box as (cards, badge, points), padded to ``width`` together."""
    cards = ngettext("{n} card", "{n} cards", count).format(n=count)
    pts = ngettext("{n} pt", "{n} pts", score).format(n=score)
    tries = [(cards, pts, "  "), (cards, str(score), "  "), (cards, str(score), " ")]
    for left, right, gap in [*tries, (str(count), str(score), " ")]:
        middle = f"{gap}{badge}" if badge else ""
        room = width - len(left) - len(middle) - len(right)
        if room >= 1:
            return left + middle, " " * room, right
    return str(count), " ", f"{badge or score}"[: max(0, width - len(str(count)) - 1)]


def _opponent_boxes(
    rows: list[OpponentRow], marks: dict[str, str], ascii_only: bool, width: int, forward: bool
) -> Text | None:
    """Up to three opponents as boxes, left to right in seat order, with arrows
    between them in the direction of play (None: they do not fit ``width``)."""
    n = len(rows)
    gap = 3  # " → " between two boxes
    box = min(26, (width - 1 - gap * (n - 1)) // max(1, n))
    if box < 16:
        return None
    tl, tr, bl, br, h, v = (
        ("+", "+", "+", "+", "-", "|") if ascii_only else ("┌", "┐", "└", "┘", "─", "│")
    )
    arrow = marks["next" if forward else "back"]
    lines = [Text(" "), Text(" "), Text(" ")]
    for i, (_seat, name, count, score, turn, mau, state) in enumerate(rows):
        if i:
            lines[0].append(" " * gap)
            lines[1].append(f" {arrow} ", style="bold")
            lines[2].append(" " * gap)
        head = _fit(f"{marks['turn']} {name}" if turn else name, box - 4, ascii_only)
        lines[0].append(f"{tl} ")
        lines[0].append(head, style="bold reverse" if turn else "bold")
        lines[0].append(" " + h * (box - len(head) - 4) + tr)
        pad = " " if box >= 20 else ""  # narrow boxes give their padding to the text
        left, room, right = _box_body(count, score, mau or state, box - 2 - 2 * len(pad))
        lines[1].append(f"{v}{pad}")
        lines[1].append(left, style="yellow bold" if mau else "")
        lines[1].append(f"{room}{right}{pad}{v}")
        lines[2].append(bl + h * (box - 2) + br)
    text = Text()
    for line in lines:
        text.append_text(line)
        text.append("\n")
    text.rstrip()
    return text


def _opponent_list(
    rows: list[OpponentRow],
    marks: dict[str, str],
    ascii_only: bool,
    width: int,
    forward: bool,
    header: bool,
) -> Text:
    """Many opponents, one line each, in columns read downwards in seat order; the
    header names the columns and shows which way play goes down them."""
    columns = max(1, min(3, (width - 1) // 38), 2 if len(rows) > 1 and width >= 50 else 1)
    per_column = -(-len(rows) // columns)
    bar = " | " if ascii_only else " │ "
    cell = (width - 1 - len(bar) * (columns - 1)) // columns
    name_width = max(4, cell - 17)  # "▶ " name, cards in 5, " MAU!", points in 5
    text = Text()
    if header:
        arrow = marks["down" if forward else "up"]
        # Outside the f-string, where extraction finds them.
        players = _fit(_("players") + " " + arrow, name_width, ascii_only)
        cards, points = pgettext("column", "cards"), pgettext("column", "pts")
        heads = [
            f"  {players:<{name_width}}{cards:>5} {'':4}{points:>5}"
            for _column in range(min(columns, len(rows)))
        ]
        text.append(" " + bar.join(heads) + "\n", style="dim")
    for i in range(per_column):
        text.append(" ")
        for column in range(columns):
            index = column * per_column + i
            if index >= len(rows):
                break
            if column:
                text.append(bar, style="dim")
            _seat, name, count, score, turn, mau, state = rows[index]
            mark = marks["turn"] if turn else " "
            who = f"{mark} {_fit(name, name_width, ascii_only):<{name_width}}"
            text.append(who, style="bold reverse" if turn else "")
            text.append(f"{count:>5} ")
            text.append(f"{(mau or state):<4}", style="yellow bold" if mau else "")
            text.append(f"{score:>5}")
        text.append("\n")
    text.rstrip()
    return text


WAITING_ROWS = 5  # the opponents' area holds six lines: a heading and five rows of seats


def seat_state(info: dict[str, Any]) -> str:
    """A seat of a table that waits, in words: ``free``, ``bot`` (its level is in
    its name), ``ready``, ``not ready``, ``away`` or ``offline``."""
    if info["bot"]:
        return pgettext("seat state", "bot")
    if info["name"] is None:
        return pgettext("seat state", "free")
    if not info["connected"]:
        return pgettext("seat state", "offline")
    if info["away"]:
        return pgettext("seat state", "away")
    return pgettext("seat state", "ready") if info["ready"] else pgettext("seat state", "not ready")


def waiting_room(model: Model, ascii_only: bool, width: int = 80) -> Text:
    """Every seat of a table waiting for its match (up to ten), each with its state
    in words: a heading and at most five rows, in two columns (seats 1-5 on the left)
    when there are more than five seats, so that it fits the opponents' six lines."""
    text = Text()
    table = model.table
    if table is None:
        return text
    seats = table.seats
    taken = sum(1 for info in seats if info["name"] is not None or info["bot"])
    heading = ngettext(
        "Waiting for the match to start: {taken} of {seats} seat taken",
        "Waiting for the match to start: {taken} of {seats} seats taken",
        len(seats),
    )
    text.append(" " + heading.format(taken=taken, seats=len(seats)) + "\n", style="bold")
    columns = 1 if len(seats) <= WAITING_ROWS else 2
    rows = -(-len(seats) // columns)
    bar = " | " if ascii_only else " │ "
    cell = min(38, (width - 1 - len(bar) * (columns - 1)) // columns)
    shown_names = [
        _("{name} (you)").format(name=seat_label(info, "-"))
        if table.you == i
        else seat_label(info, "-")
        for i, info in enumerate(seats)
    ]
    states = [seat_state(info) for info in seats]
    free = pgettext("seat state", "free")
    name_width = max(len(n) for n in shown_names)
    state_width = max(len(s) for s in states)
    for row in range(rows):
        for column in range(columns):
            i = column * rows + row
            if i >= len(seats):
                continue
            if column:
                text.append(bar, style="dim")
            state, name = states[i], shown_names[i]
            room = max(1, min(name_width, cell - 4 - 1 - state_width))
            shown = f"{i + 1:>3} {name[:room]:<{room}} {state}"
            style = "dim" if state == free else ("bold" if table.you == i else "")
            text.append(shown.ljust(cell), style=style)
        text.append("\n")
    return text


def pile(
    model: Model,
    ascii_only: bool,
    seconds_left: float | None,
    clock_stopped: bool = False,
    width: int | None = None,
) -> Text:
    """The pile, the stock and the direction; then whose turn it is with its countdown
    (or "clock stopped" there while the connection is down), or how the round stands.
    When the first line would not fit in ``width``, the direction is only its arrow."""
    view = model.view
    text = Text()
    if view is None:
        return text
    marks = _marks(ascii_only)
    direction = marks["cw"] if view.direction == 1 else marks["ccw"]
    # As wide as the longer way (so "on top" stays put when play turns), and a space.
    room = max(22, max(len(marks["cw"]), len(marks["ccw"])) + 1)
    stock = " " + _("stock {count}").format(count=f"{view.stock:<3}") + "  "
    top = f" {label(view.top, ascii_only)} "
    named = ""
    if view.named:
        what = _("suit: {suit}") if model.is_classic() else _("colour: {suit}")
        named = "  " + what.format(suit=suit_words(view.named, ascii_only))
    if width is not None:
        rest = cell_len(stock + _("on top: ") + top + named)
        if rest + room > width:
            direction, room = direction.split(" ")[0], 3
    text.append(stock + f"{direction:<{room}}")
    text.append(_("on top: "))
    text.append(top, style=card_style(view.top, True, False) + " reverse")
    if named:
        text.append(named, style="bold")
    text.append("\n ")
    names = model.names()
    if view.phase == "playing":
        if model.my_turn:
            text.append(_("your turn"), style="bold reverse")
        else:
            text.append(_("{name}'s turn").format(name=names[view.turn]))
        if clock_stopped:
            text.append("  " + _("clock stopped"), style="bold")
        clock = bar = ""
        if seconds_left is not None and view.turn_deadline_ms is not None:
            settings = model.table.settings if model.table else {}
            total = max(1.0, number_setting(settings, "turn_timeout_s", 45))
            filled = int(12 * max(0.0, min(1.0, seconds_left / total)))
            bar = " " + marks["bar"] * filled + marks["empty"] * (12 - filled)
            clock = f" {int(seconds_left):>2} s"
        penalty = ""
        if view.penalty:
            penalty = "  " + {
                "seven": _("penalty: draw {n} or answer with a 7"),
                "draw_two": _("penalty: draw {n} or a Draw Two"),
                "wild_draw_four": _("penalty: draw {n} or challenge"),
            }.get(view.penalty_kind or "", _("penalty: draw {n} ")).format(n=view.penalty)
            # Too wide for the line (a phone, a longer language): the clock's bar
            # gives way first (its seconds stay), then the penalty's second half.
            used = cell_len(text.plain.rsplit("\n", 1)[-1])
            if width is not None and used + 1 + cell_len(bar + clock + penalty) > width:
                bar = ""
                if used + 1 + cell_len(clock + penalty) > width:
                    penalty = "  " + _("penalty: draw {n}").format(n=view.penalty)
        if clock:
            text.append(" " + bar + clock)
        if penalty:
            text.append(penalty, style="bold yellow")
    elif view.phase == "ending":
        text.append(_("the last card is down; the round ends when its call window closes"))
    elif view.phase == "round_over":
        waiting = round_waits_for(model)
        if waiting is None:
            text.append(_("round over: press a key on the result to be ready"))
        elif waiting:
            comma = pgettext("list separator", ", ")
            # NOTE: the line under the pile after the round, once the player closed
            # the result (and so said ready): whom the next deal waits for.
            words = _("round over: you are ready, waiting for {names}")
            text.append(words.format(names=comma.join(waiting)))
        else:
            text.append(_("round over: you are ready"))
    elif view.phase == "match_over":
        winner = names[view.winner] if view.winner is not None else "?"
        text.append(_("match over: {name} wins").format(name=winner), style="bold")
        rematch = rematch_words(model)
        if rematch:
            dot = " - " if ascii_only else " · "
            text.append(dot + rematch)
    if clock_stopped and view.phase != "playing":
        text.append("  " + _("clock stopped"), style="bold")
    return text


def round_waits_for(model: Model) -> list[str] | None:
    """After a round (not the match), once this player said ready for the next (by
    closing the result): the players the next deal still waits for (bots are always
    ready, a player gone is not waited for); None while this player is not ready,
    or watches."""
    table = model.table
    view = model.view
    if table is None or table.you is None or view is None or view.phase != "round_over":
        return None
    if not table.seats[table.you]["ready"]:
        return None
    names = model.names()
    return [
        names[i]
        for i, seat in enumerate(table.seats)
        if seat["name"] and not seat["bot"] and seat["connected"] and not seat["ready"]
    ]


def rematch_words(model: Model) -> str:
    """After a match: where the rematch stands, in words (who asked, whom it waits
    for, when it starts by itself); "" at a tournament's table or before anybody asked
    (the keys say how to ask)."""
    if model.at_tournament_table:
        return ""
    asked, waiting = model.rematch_asked()
    seconds = model.rematch_seconds()
    if not asked or seconds is None:
        return ""
    comma = pgettext("list separator", ", ")
    if not waiting:
        return _("rematch: everyone agrees")
    if not model.i_asked_for_rematch() and model.seat is not None:
        return ngettext(
            "{names} asks for a rematch: r agrees (it starts in {n} s)",
            "{names} ask for a rematch: r agrees (it starts in {n} s)",
            len(asked),
        ).format(names=comma.join(asked), n=int(seconds))
    return _("rematch in {n} s, waiting for {names}").format(
        n=int(seconds), names=comma.join(waiting)
    )


@dataclass(frozen=True)
class CardPlace:
    """Where one card of the hand is drawn, in the hand's text: ``lines`` lines from
    ``line``, the cells ``start`` to ``end`` (exclusive) of each."""

    line: int
    lines: int
    start: int
    end: int

    def holds(self, x: int, y: int) -> bool:
        return self.line <= y < self.line + self.lines and self.start <= x < self.end


def hand_layout(model: Model, ascii_only: bool, width: int, boxes: bool = True) -> list[CardPlace]:
    """Where :func:`hand` draws each card of my hand, in its order (none when it
    draws no cards): the one source of the cards' places, for drawing and for
    clicks. As boxes (a card and the gap after it; the number under it counts as
    the card's) when they fit ``width`` and ``boxes``; else on lines of
    ``[card]`` cells, wrapped between cards at ``width`` (0: never wrapped)."""
    view = model.view
    if view is None or view.hand is None:
        return []
    cards = model.hand()
    per_row = max(1, width // (CARD_WIDTH + 1)) if boxes else 1
    if len(cards) <= per_row:
        return [
            CardPlace(0, 4, 1 + i * (CARD_WIDTH + 1), 1 + (i + 1) * (CARD_WIDTH + 1))
            for i in range(len(cards))
        ]
    places: list[CardPlace] = []
    line, used = 0, 1  # each line starts with a space
    for code in cards:
        cells = 1 + 1 + cell_len(label(code, ascii_only)) + 1 + 1  # number [card] mark
        if width and used > 1 and used + cells > width:
            line, used = line + 1, 1
        places.append(CardPlace(line, 1, used, used + cells))
        used += cells
    return places


def hand(
    model: Model,
    cursor: int,
    ascii_only: bool,
    armed: str | None,
    width: int = 78,
    problem: str | None = None,
    boxes: bool = True,
    hint_rows: int = 0,
) -> Text:
    """My cards as small boxes (on lines of ``[card]`` when many, or not ``boxes``:
    see :func:`hand_layout`), legal ones bright, and under them a hint, or
    ``problem``: why the last key did nothing. With ``hint_rows``, the hint takes
    exactly that many lines of ``width`` (so that what is under the hand stays put)."""
    cards = model.hand()
    text = Text()
    if model.view is None:
        who = model.table.creator if model.table else None
        seated = model.table is not None and model.table.you is not None
        if seated and who == model.name:
            text.append(" " + _("Press s to start; bots take the free seats."))
        elif who:
            text.append(" " + _("Waiting for {name} to start the match.").format(name=who))
        else:
            text.append(" " + _("Waiting for the creator to start the match."))
        if seated:
            # NOTE: the waiting room, under the seats: Enter says ready (or not).
            text.append("\n " + _("Enter: ready (it starts once all seats are ready)"))
        return text
    if model.view.hand is None:
        text.append(" " + _("(watching: no hand)"))
        return text
    legal = model.playable() if model.my_turn else set()
    fit = "+" if ascii_only else "✓"  # under (or after) each card that fits: the hint says why
    if not cards:
        text.append(" " + _("no cards"))
        return text
    places = hand_layout(model, ascii_only, width, boxes)
    if places[-1].lines > 1:
        tl, tr, bl, br, h, v = (
            ("+", "+", "+", "+", "-", "|") if ascii_only else ("┌", "┐", "└", "┘", "─", "│")
        )
        rows = [Text(" "), Text(" "), Text(" "), Text(" ")]
        for i, code in enumerate(cards):
            style = card_style(code, code in legal, i == cursor)
            face = label(code, ascii_only)[:5].center(5)
            rows[0].append(f"{tl}{h * 5}{tr} ", style="bold" if i == cursor else "dim")
            rows[1].append(v, style="bold" if i == cursor else "dim")
            rows[1].append(face, style=style)
            rows[1].append(f"{v} ", style="bold" if i == cursor else "dim")
            rows[2].append(f"{bl}{h * 5}{br} ", style="bold" if i == cursor else "dim")
            number = str(i + 1) if i < 9 else " "
            mark = "^" if ascii_only else "▲"
            fits = (fit if code in legal else "").ljust(len(fit) if legal else 0)
            under = f"{(mark if i == cursor else number)}{fits}"
            bold = i == cursor or code in legal
            rows[3].append(f"{under:^7} ", style="bold" if bold else "dim")
        for row in rows:
            text.append_text(row)
            text.append("\n")
    else:
        text.append(" ")
        for i, (code, place) in enumerate(zip(cards, places, strict=True)):
            if i and place.line != places[i - 1].line:
                text.append("\n ")
            text.append(f"{i + 1 if i < 9 else ' '}", style="dim")
            text.append(
                f"[{label(code, ascii_only)}]", style=card_style(code, code in legal, i == cursor)
            )
            text.append(fit if code in legal else " ", style="bold")
        text.append("\n")
    if problem:
        hint = Text(f" ! {problem}", style="bold yellow")
    else:
        hint = Text(f" {model.hint(armed, ascii_only)}", style="italic")
    text.append_text(fixed_rows(hint, width, hint_rows, ascii_only) if hint_rows else hint)
    return text


def fixed_rows(text: Text, width: int, rows: int, ascii_only: bool) -> Text:
    """``text`` wrapped to ``width`` in exactly ``rows`` lines: padded with empty
    ones, or cut at the end of the last (marked with an ellipsis)."""
    width = max(2, width)
    console = Console(width=width, file=io.StringIO(), legacy_windows=False)
    lines = list(text.wrap(console, width))
    shown = lines[:rows]
    if len(lines) > rows:
        cut = "~" if ascii_only else "…"
        last = shown[-1]
        last.rstrip()
        last.truncate(width - len(cut))
        last.append(cut, style=text.style)
    shown += [Text("")] * (rows - len(shown))
    return Text("\n").join(shown)


def round_result(model: Model, ascii_only: bool, width: int = 72) -> Text:
    """A finished round (or match) in ``width`` columns: who went out and what they
    scored, in words; every hand revealed with its points (long hands wrap under
    themselves, names are never cut); then :func:`score_chart`."""
    view = model.view
    text = Text()
    if view is None or view.last_round is None:
        return text
    last = view.last_round
    names = model.names()
    if view.phase == "match_over" and view.winner is not None:
        score = view.scores[view.winner] if view.winner < len(view.scores) else 0
        won = ngettext(
            "{name} wins the match with {points} points!",
            "{name} wins the match with {points} points!",
            score,
        )
        text.append(won.format(name=names[view.winner], points=score) + "\n", style="bold")
    paid = pgettext("list separator", ", ").join(
        f"{names[s]} {p}" for s, p in enumerate(last["hand_points"]) if p
    )
    # One sentence a case, so that a translation may order it as its language needs.
    went = (
        _("Round {round}: {name} goes out and scores {points} ({paid})")
        if paid
        else _("Round {round}: {name} goes out and scores {points}")
    )
    line = went.format(
        round=last["round"], name=names[last["winner"]], points=last["points"], paid=paid
    )
    text.append(line + "\n", style="bold")
    name_width = max(len(n) for n in names)
    prefix = 1 + name_width + 1 + 4 + 2
    room = max(8, width - prefix)
    player, pts, hand_ = (
        pgettext("column", "player"),
        pgettext("column", "pts"),
        pgettext("column", "hand"),
    )
    text.append(f" {player:<{name_width}} {pts:>4}  {hand_}\n", style="dim")
    for seat, cards in enumerate(last["hands"]):
        points = last["hand_points"][seat]
        text.append(f" {names[seat]:<{name_width}} {points:>4}  ")
        if not cards:
            text.append(_("(out)"), style="dim")
        used = 0
        for code in sorted(cards, key=card_sort_key):
            face = label(code, ascii_only)
            if used and used + len(face) > room:
                text.append("\n" + " " * prefix)
                used = 0
            text.append(face, style=card_style(code, True, False))
            text.append(" ")
            used += len(face) + 1
        text.append("\n")
    text.append_text(score_chart(model, ascii_only, width))
    text.rstrip()
    return text


def match_deals(model: Model) -> int:
    """How many deals the match at the table lasts (0: it is played to the target)."""
    if model.table is None:
        return 0
    return max(0, int(number_setting(model.table.settings, "deals", 0)))


def score_chart(model: Model, ascii_only: bool, width: int = 72) -> Text:
    """Each player's total after each round, one column a round, and a bar against
    the target. Names are never cut; when the rounds do not all fit in ``width``,
    the latest are shown and the heading says which are left out. A match of so
    many deals has no target to speak of: the heading says which deal of how many,
    and the bars measure against the highest score."""
    text = Text()
    if not model.score_history or model.table is None:
        return text
    target = int(number_setting(model.table.settings, "target_score", 150))
    deals = match_deals(model)
    names = model.names()
    history = model.score_history
    if deals:
        target = max(history[-1])
    name_width = max(len(n) for n in names)
    # NOTE: a column of the score chart: round n, as short as can be (2 to 4 letters).
    head = pgettext("score chart", "r{n}")
    column = max(
        4,
        *(len(str(v)) + 1 for row in history for v in row),
        len(head.format(n=len(history))) + 1,
    )
    fits = max(1, (width - 1 - name_width - 1 - 8) // column)  # a bar of at least 8
    shown = history[-fits:]
    bar_width = max(8, min(20, width - 1 - name_width - 1 - column * len(shown)))
    first = len(history) - len(shown) + 1  # the round of the first column shown
    if deals and first > 2:
        heading = _("Scores after each round (deal {number} of {deals}; rounds 1-{last} not shown)")
    elif deals and first == 2:
        heading = _("Scores after each round (deal {number} of {deals}; round 1 not shown)")
    elif deals:
        heading = _("Scores after each round (deal {number} of {deals})")
    elif first > 2:
        heading = _("Scores after each round (target {target}; rounds 1-{last} not shown)")
    elif first == 2:
        heading = _("Scores after each round (target {target}; round 1 not shown)")
    else:
        heading = _("Scores after each round (target {target})")
    last_round = model.view.last_round if model.view is not None else None
    number = last_round["round"] if last_round is not None else len(history)
    text.append(heading.format(target=target, last=first - 1, number=number, deals=deals) + "\n")
    text.append(f" {'':<{name_width}}", style="dim")
    for n in range(first, len(history) + 1):
        text.append(f"{head.format(n=n):>{column}}", style="dim")
    text.append("\n")
    block, empty = ("#", ".") if ascii_only else ("█", "░")
    latest = history[-1]
    for seat in range(len(latest)):
        text.append(f" {names[seat]:<{name_width}}")
        for row in shown:
            text.append(f"{row[seat]:>{column}}")
        filled = min(bar_width, int(bar_width * latest[seat] / max(1, target)))
        text.append(" " + block * filled + empty * (bar_width - filled) + "\n")
    return text


# --- records -------------------------------------------------------------------------


def when(finished: float) -> str:
    """A finish time as local date and time: ``2025-05-01 21:30``."""
    return datetime.datetime.fromtimestamp(finished).strftime("%Y-%m-%d %H:%M")


def game_name(variant: str) -> str:
    """A game's short name: ``Mau Mau``, ``American``."""
    if variant == "classic":
        return _("Mau Mau")
    # NOTE: the short name of American Mau-Mau where room is scarce.
    return pgettext("short game name", "American")


# --- replays -------------------------------------------------------------------------

REPLAY_NAME_WIDTH = 14


def replay_names(book: ReplayBook) -> list[str]:
    """The replay's players, bots marked (when the history said which were bots)."""
    return [
        _("{name} (bot)").format(name=name) if i < len(book.bots) and book.bots[i] else name
        for i, name in enumerate(book.names)
    ]


def replay_title(book: ReplayBook, n: int, ascii_only: bool, width: int = 80) -> Text:
    """The title bar: which match, which step of how many, which round."""
    dot = "-" if ascii_only else "·"
    game = game_name(book.variant)
    text = Text(" maumau  ", style="bold")
    text.append(_("replay") + f" {dot} {book.table or '...'} {dot} {game}")
    step = book.steps.get(n)
    total = book.total
    where = _("step {n}/{total}").format(n=n + 1, total=total) if total else _("loading")
    if step is not None:
        where += f" {dot} " + _("round {number}").format(number=step["round"])
    pad = max(1, width - 1 - len(text.plain) - len(where))
    text.append(" " * pad + where)
    return text


def replay_hands(
    book: ReplayBook, step: dict[str, Any], ascii_only: bool, width: int = 78, lines: int = 10
) -> Text:
    """Every seat with its cards revealed, the seat on turn marked. A hand that does
    not fit on its line wraps when there are ``lines`` enough for every hand to wrap,
    else is cut with ``+N`` (the count is always shown in its own column)."""
    marks = _marks(ascii_only)
    names = replay_names(book)
    hands: list[list[str]] = [sorted(h, key=card_sort_key) for h in step["hands"]]
    prefix = 2 + REPLAY_NAME_WIDTH + 1 + 5 + 6 + 2
    room = max(10, width - prefix)

    def wrapped(cards: list[str]) -> list[list[str]]:
        rows: list[list[str]] = [[]]
        used = 0
        for code in cards:
            size = len(label(code, ascii_only)) + 1
            if used + size > room and rows[-1]:
                rows.append([])
                used = 0
            rows[-1].append(code)
            used += size
        return rows

    layouts = [wrapped(cards) for cards in hands]
    wrap = sum(len(rows) for rows in layouts) <= lines
    text = Text()
    player, cards_, pts = (
        pgettext("column", "player"),
        pgettext("column", "cards"),
        pgettext("column", "pts"),
    )
    header = f"  {player:<{REPLAY_NAME_WIDTH}} {cards_:>5} {pts:>5}  " + pgettext("column", "hand")
    text.append(header + "\n", style="dim")
    playing = step["phase"] == "playing"
    for seat, cards in enumerate(hands):
        turn = playing and seat == step["turn"]
        name = names[seat] if seat < len(names) else seat_name([], seat)
        score = step["scores"][seat] if seat < len(step["scores"]) else 0
        head = f"{marks['turn'] if turn else ' '} {name[:REPLAY_NAME_WIDTH]:<{REPLAY_NAME_WIDTH}}"
        text.append(head, style="bold reverse" if turn else "bold")
        text.append(f" {len(cards):>5} {score:>5}  ")
        rows = layouts[seat] if wrap else [_cut(cards, room, ascii_only)]
        for i, row in enumerate(rows):
            if i:
                text.append("\n" + " " * prefix)
            for code in row:
                if code.startswith("+"):
                    text.append(code, style="dim")
                else:
                    text.append(label(code, ascii_only), style=card_style(code, True, False))
                text.append(" ")
        if not cards:
            text.append(_("(out)"), style="dim")
        text.append("\n")
    text.rstrip()
    return text


def _cut(cards: list[str], room: int, ascii_only: bool) -> list[str]:
    """As many cards as fit in ``room`` characters, then ``+N`` for the rest."""
    shown: list[str] = []
    used = 0
    for i, code in enumerate(cards):
        size = len(label(code, ascii_only)) + 1
        rest = len(cards) - i - 1
        tail = len(f"+{rest}") + 1 if rest else 0
        if used + size + tail > room:
            shown.append(f"+{len(cards) - i}")
            break
        shown.append(code)
        used += size
    return shown


def replay_table(
    book: ReplayBook, step: dict[str, Any], ascii_only: bool, winner: int | None = None
) -> Text:
    """The pile and the state of play: top card, named suit or colour, penalty,
    stock, direction, and whose turn it is (or how the round or match stands)."""
    marks = _marks(ascii_only)
    names = replay_names(book)
    text = Text(" " + _("on top: "))
    top = step["top"]
    text.append(f" {label(top, ascii_only)} ", style=card_style(top, True, False) + " reverse")
    if step["named"]:
        what = _("suit: {suit}") if book.variant == "classic" else _("colour: {suit}")
        text.append("  " + what.format(suit=suit_words(step["named"], ascii_only)), style="bold")
    if step["penalty"]:
        penalty = _("penalty: draw {n}").format(n=step["penalty"])
        text.append("  " + penalty, style="bold yellow")
    direction = marks["cw"] if step["direction"] == 1 else marks["ccw"]
    text.append("  " + _("stock {count}").format(count=step["stock"]) + f"  {direction}\n ")
    phase = step["phase"]
    if phase == "playing":
        turn = step["turn"]
        who = names[turn] if turn < len(names) else str(turn)
        text.append(_("{name} to play").format(name=who))
    elif phase == "ending":
        text.append(_("the last card is down; the round ends when its call window closes"))
    elif phase == "round_over":
        text.append(_("round {number} is over").format(number=step["round"]), style="bold")
    elif winner is not None and winner < len(names):
        text.append(_("the match is over: {name} wins").format(name=names[winner]), style="bold")
    else:
        text.append(_("the match is over"), style="bold")
    return text
