"""``--ascii`` draws nothing but ASCII: every screen and dialog the client can show.

Each screen is drawn by the real app (``run_test``) from fixed server messages, and
every character of the terminal, as the compositor hands it over (borders, input
fields, checkboxes, scrollbars, the footer, and the screens under a dialog), must be
ASCII. Each screen is drawn at 80x24, then resized to the minimum size 60x20, and
the keys of each case bring up what is otherwise hidden (the chat's input field, a
focused field, a typed password).
"""

from __future__ import annotations

import pytest

from support.ascii import (
    CASES,
    drawn_in_ascii,
)


@pytest.mark.parametrize("case", list(CASES))
def test_nothing_but_ascii_on_screen(case: str) -> None:
    make, keys = CASES[case]
    for size, text in drawn_in_ascii(make, keys).items():
        assert text.strip(), f"{case} at {size}: nothing was drawn"
        strange = sorted({c for c in text if not c.isascii()})
        assert not strange, f"{case} at {size}: not ASCII: {strange!r}\n{text}"
