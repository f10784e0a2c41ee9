"""Names people can tell apart: the comparison key of a name, and what makes a name or
a chat line unusable.

Two questions, both pure functions of text (no I/O, no clock, no trio):

- :func:`skeleton` answers "would people take these two names for the same one?". Two
  names are the same name when their skeletons are equal. Names are reserved (bots,
  PIN-kept names, players online) and compared by skeleton only, never by the raw text.
- :func:`name_problem` and :func:`chat_problem` answer "does this text show what it
  claims to show?". They return ``None`` when the text may be used, otherwise a short
  English reason for a ``bad_name`` (or chat) error.

The protocol already limits a name to a few printable characters without white space
at either end (``NAME_MAX``) and a chat line to ``CHAT_MAX`` printable characters; these
checks come on top, and hold for any text (they never raise).

The skeleton
------------
Unicode's "skeleton" (UTS #39, section 4) maps every character to a *prototype*: the
character (or short string) it is most easily mistaken for, so that ``Аnn`` with a
Cyrillic ``А`` and ``Ann`` share one skeleton. Here the comparison is also blind to
case and to compatibility variants (fullwidth ``Ａｎｎ``, mathematical ``𝐀𝐧𝐧``), so:

1. *fold*: NFKD, case fold, NFKD again (the folded form of a code point is stable
   under folding again, for all of Unicode 14; the tests check it);
2. map every character through the prototype table below (default-ignorable code
   points map to nothing, blank-looking ones to a space);
3. collapse runs of white space to one space, strip it at both ends, and recompose
   (NFKC, which also puts marks that met across a replacement back in canonical order).

The result is idempotent: ``skeleton(skeleton(x)) == skeleton(x)``, because every value
of the table is a string of folded characters that the table leaves alone.

The prototype table
-------------------
The data is Unicode's ``confusables.txt`` as shipped by the maintained package
``confusable-homoglyphs`` (``confusables.json``). That file has lost the direction of
each line ``source → prototype``: it stores both ends, each listing the other. The
direction is recovered from its shape: every prototype of UTS #39 is a fixed point and
every source has exactly one prototype, so each group is a star. The centre of a star
with two or more rays is the prototype; in a group of two, a string of several
characters is the prototype (sources are single code points); between two single
characters, the one that survives folding unchanged wins, then ASCII, then the lower
code point.

Each line ``source → prototype`` is then folded on both sides, giving a candidate
prototype for the folded source:

- a line whose source is already folded ("own" line: ``а → a``, ``ν → v``) counts;
- a line whose source is a capital or a variant form (``Н → H``, ``𝚴 → N``) carries
  over to the folded forms (``н → h``) only if the folded source is not ASCII (ASCII
  keeps its own lines: ``I → l`` does not make every ``i`` an ``l``), the prototype is
  a capital too or has no case (a capital that looks like a small letter, ``Ι → l``,
  says nothing about its own small letter), and the variant keeps its shape
  (mathematical, fullwidth and halfwidth forms do; ``<compat>`` ones may not: LUNATE
  SIGMA looks like C but decomposes to a capital sigma).

Per folded character one candidate wins: an ASCII prototype (after folding) first, then
a capital's line before an own line (Greek ``β`` takes ``b`` from ``Β → B``, not ``ss``
from ``β → ß``), then the shorter, then the lower code points. Chains are followed to
their end (a character whose chain cycles or keeps growing is left alone), so the
table maps every character straight to a string the table leaves alone.

What the data says for the usual suspects (the tests pin these):

- ``0`` is a look-alike of ``O``, hence of ``o``: ``J0hn`` and ``John`` are one name;
- ``1`` and ``|`` are look-alikes of ``l``: ``A1ex``, ``A|ex`` and ``Alex`` are one
  name;
- ``I`` is, per the data, a look-alike of ``l``, but ``I`` is also the capital of ``i``
  and comparison is blind to case: ``Ian`` is ``ian``, not ``lan``, and ``lnes`` is
  not ``Ines``. Every other capital I (Greek, Cyrillic, fullwidth, mathematical) goes
  with the Latin one;
- ``m`` is a look-alike of ``rn``: ``Mona`` and ``rnona`` are one name;
- Cyrillic and Greek letters that look like Latin ones map to them, capitals and small
  letters alike (``Аnn``, ``Сleo``, ``Нugo``, ``Εdda``, ``Βert``, ``Κim``), except
  where a capital and its small letter look like two different Latin letters: Greek
  ``Ν`` is drawn like ``N`` but ``ν`` like ``v``. One key cannot say both without
  making ``n`` and ``v`` one letter, and the capital wins, being the exact copy:
  ``Νina`` is ``Nina``, and ``νera`` is not ``vera``. The same holds for Greek
  ``Υ``/``υ`` (``Y`` wins over ``u``).

Visibility
----------
A name or line must show something. Invisible are: default-ignorable code points
(:data:`DEFAULT_IGNORABLE`), format and control characters, and blank-looking
characters (white space, U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL
NOTEHEAD, U+16FE4 KHITAN SMALL SCRIPT FILLER; the Hangul fillers are default-ignorable).
Combining marks show only on a letter. So, after canonical decomposition:

- nothing left once invisible characters and marks are removed: refused;
- more than :data:`MAX_ACCENTS` accents on one letter (marks placed at a fixed spot:
  canonical combining class not 0, or enclosing marks) or more than :data:`MAX_MARKS`
  non-spacing marks of any kind on one letter: refused ("Zalgo" text). Vietnamese
  ``ệ`` has two accents; Tibetan ``སྒྲོ`` (in Drolma) stacks three marks of which one
  is an accent (subjoined letters have class 0), and both are fine. Pointed Hebrew
  with shin dot, dagesh and a vowel on one letter (three accents) is refused;
- for names only: a leading mark, any invisible character except the joiners and
  selectors that shape the visible character before them (ZWNJ, ZWJ, variation
  selectors, emoji tags), and any blank other than the plain space.

Emoji are visible characters: ``🎲`` is a valid name, distinct from every other.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from importlib import resources

MAX_ACCENTS = 2
"""Most accents (marks of a fixed placement) one letter may carry: Vietnamese needs 2."""

MAX_MARKS = 4
"""Most non-spacing or enclosing marks of any kind one letter may carry."""

# Every character Unicode names an asterisk (as of Unicode 14; the tag one, which shows
# nothing, aside): bots' names end with "*" (maumau.server.bots.BOT_MARK), so a
# person's name may hold none of them, nor a look-alike of "*" (by the skeleton).
ASTERISKS: frozenset[int] = frozenset(
    {0x2A, 0x359, 0x66D, 0x204E, 0x2051, 0x20F0, 0x2217, 0x229B, 0x29C6, 0x2A6E, 0xA673}
    | {0xFE61, 0xFF0A, 0x1031F, 0x122EC, 0x12394}
    | set(range(0x2722, 0x2726))
    | set(range(0x2731, 0x2734))
    | set(range(0x273A, 0x273E))
    | {0x2743, 0x2749, 0x274A, 0x274B}
    | set(range(0x1F7AF, 0x1F7C0))
)

# Default_Ignorable_Code_Point, from Unicode's DerivedCoreProperties.txt
# (https://www.unicode.org/Public/UCD/latest/ucd/DerivedCoreProperties.txt), as of
# Unicode 14, the version of Python 3.11's unicodedata, which lacks this property.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE .. RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # WORD JOINER, invisible operators, bidi isolates, deprecated
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT controls
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM .. END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17..256, reserved
)

# Printable characters that draw nothing, beyond white space and the ranges above.
_BLANK_EXTRA = frozenset({0x2800, 0x1D159, 0x16FE4})

# Invisible characters a name may hold after a visible one: they shape what comes
# before them (Persian ZWNJ, emoji ZWJ sequences, emoji presentation, flag tags).
_SHAPERS: tuple[tuple[int, int], ...] = (
    (0x200C, 0x200D),
    (0xFE00, 0xFE0F),
    (0xE0020, 0xE007F),
    (0xE0100, 0xE01EF),
)

# Compatibility decompositions that keep a character's shape (mathematical letters,
# fullwidth and halfwidth forms); the others (<compat>, <super>, <circle>...) may not:
# LUNATE SIGMA looks like C but decomposes to a Greek capital sigma.
_SHAPE_KEEPING = frozenset({"<font>", "<wide>", "<narrow>"})


def _in(ranges: tuple[tuple[int, int], ...], cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_default_ignorable(char: str) -> bool:
    """Whether ``char`` (one code point) has Unicode's Default_Ignorable_Code_Point."""
    return _in(DEFAULT_IGNORABLE, ord(char))


def _fold(text: str) -> str:
    """NFKD, case fold, NFKD: the form in which characters are compared."""
    return unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())


def _strip_display_marks(text: str) -> str:
    if "\u200e" in text or "\u200f" in text:
        return text.replace("\u200e", "").replace("\u200f", "")
    return text


def _load_pairs() -> list[tuple[str, str]]:
    """``(source, prototype)`` for every line of the confusables data, directions
    recovered as the module docstring explains."""
    raw = (
        resources.files("confusable_homoglyphs")
        .joinpath("confusables.json")
        .read_text(encoding="utf-8")
    )
    data: dict[str, list[dict[str, str]]] = json.loads(raw)
    # The generator wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display.
    # The file lists every line from both ends; both are read, in case one is missing.
    links: dict[str, set[str]] = defaultdict(set)
    for key, entries in data.items():
        a = _strip_display_marks(key)
        for entry in entries:
            b = _strip_display_marks(entry["c"])
            if a and b and a != b:
                links[a].add(b)
                links[b].add(a)

    def preference(s: str) -> tuple[bool, bool, int, list[int]]:
        return (_fold(s) != s, not s.isascii(), len(s), [ord(c) for c in s])

    pairs: list[tuple[str, str]] = []
    for a in sorted(links):
        others = links[a]
        if len(others) > 1:
            continue  # a star's centre: a prototype, reached from its rays
        (b,) = others
        if len(links[b]) > 1:
            pairs.append((a, b))
        elif len(a) > 1 or (len(b) == 1 and preference(a) < preference(b)):
            continue  # a is the prototype of this pair; the pair is added from b's side
        else:
            pairs.append((a, b))
    return pairs


def _carries_over(source: str, target: str, folded: str) -> bool:
    """Whether the line ``source → target``, whose source is a capital or a variant
    form, also holds between their folded forms (see the module docstring)."""
    if folded.isascii():
        return False  # ASCII characters keep their own lines only: "I" → "l" is not "i" → "l"
    if _fold(target) == target and target.lower() != target.upper():
        return False  # a capital that looks like a small letter says nothing of its own small
    tag = unicodedata.decomposition(source).partition(" ")[0]
    return not tag.startswith("<") or tag in _SHAPE_KEEPING


@functools.cache
def _table() -> dict[int, str]:
    """The folded prototype of every folded character that has one; default-ignorable
    code points map to "", blank-looking characters to a space. Built once."""
    candidates: dict[str, set[tuple[str, bool]]] = defaultdict(set)
    for source, target in _load_pairs():
        a, b = _fold(source), _fold(target)
        if len(a) != 1 or a in b:  # a prototype holding its source would grow
            continue
        own = source == a
        if own or _carries_over(source, target, a):
            candidates[a].add((b, own))

    def rank(candidate: tuple[str, bool]) -> tuple[bool, bool, int, list[int]]:
        b, own = candidate
        return (not b.isascii(), own, len(b), [ord(c) for c in b])

    step = {a: min(found, key=rank)[0] for a, found in candidates.items()}
    for lo, hi in DEFAULT_IGNORABLE:
        for cp in range(lo, hi + 1):
            step[chr(cp)] = ""
    for cp in _BLANK_EXTRA:
        step[chr(cp)] = " "
    return {ord(a): value for a, value in _closure(step).items()}


def _closure(step: dict[str, str], rounds: int = 16) -> dict[str, str]:
    """Follow every chain of ``step`` (one character to a string) to its end, so that
    the result maps every character straight to a string the result leaves alone.
    A character whose chain does not settle within ``rounds`` steps (a cycle, or a
    string that keeps growing) loses its entry; so does every character whose chain
    runs into one, hence no kept chain needs a lost entry."""
    done: dict[str, str] = {}
    for a, value in step.items():
        for _ in range(rounds):
            nxt = _fold("".join(step.get(c, c) for c in value))
            if nxt == value:
                done[a] = value
                break
            value = nxt
    return done


@functools.lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The key by which names are reserved and compared: equal skeletons, same name.

    Case, compatibility variants, look-alike characters of other scripts (Unicode's
    confusables), invisible characters and the kind and number of blanks between words
    do not count. See the module docstring for the steps and what the data decides.
    """
    folded = _fold(text).translate(_table())
    key = " ".join(folded.split())
    return unicodedata.normalize("NFKC", key)


# What one code point is, for the visibility rules (after canonical decomposition).
_VISIBLE = 0  # letters, digits, punctuation, symbols, emoji, unassigned code points
_BLANK = 1  # white space and blank-looking characters: they carry marks but show nothing
_INVISIBLE = 2  # default-ignorable, format, control and surrogate code points
_SHAPER = 3  # invisible, but shapes the visible character before it (see _SHAPERS)
_ACCENT = 4  # a mark with a fixed place on its letter (combining class > 0), or enclosing
_MARK = 5  # any other non-spacing mark (Indic vowel signs, Tibetan subjoined letters)
_SPACING_MARK = 6  # a combining mark that takes its own room (Mc)


@functools.lru_cache(maxsize=8192)
def _kind(char: str) -> int:
    cp = ord(char)
    if _in(_SHAPERS, cp):
        return _SHAPER
    if _in(DEFAULT_IGNORABLE, cp):
        return _INVISIBLE
    category = unicodedata.category(char)
    if char.isspace() or cp in _BLANK_EXTRA or category[0] == "Z":
        return _BLANK
    if category in ("Cc", "Cf", "Cs"):
        return _INVISIBLE
    if category == "Me" or (category == "Mn" and unicodedata.combining(char)):
        return _ACCENT
    if category == "Mn":
        return _MARK
    if category == "Mc":
        return _SPACING_MARK
    return _VISIBLE


def _show(char: str) -> str:
    """``U+2800 BRAILLE PATTERN BLANK``: a character named, for a reason text."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def _visibility(text: str, what: str, strict: bool) -> str | None:
    """The first visibility rule ``text`` breaks, as a reason, or None. ``strict`` adds
    the rules for names (no leading mark, no stray invisible or blank character)."""
    if text and text.isascii() and text.isprintable() and not text.isspace():
        return None  # plain printable ASCII with something in it: nothing to check
    visible = marked = False
    accents = marks = 0
    stray: str | None = None
    for char in unicodedata.normalize("NFD", text):
        kind = _kind(char)
        if kind == _VISIBLE:
            visible = True
            accents = marks = 0
        elif kind == _BLANK:
            accents = marks = 0
            if strict and char != " " and stray is None:
                stray = f"the {what} contains a blank other than a plain space ({_show(char)})"
        elif kind in (_ACCENT, _MARK, _SPACING_MARK):
            if strict and not visible and stray is None:
                stray = f"the {what} starts with an accent that has no letter under it"
            marked = True
            if kind != _SPACING_MARK:
                marks += 1
                accents += kind == _ACCENT
                if accents > MAX_ACCENTS or marks > MAX_MARKS:
                    return "too many accents on one letter"
        elif strict and stray is None and (kind == _INVISIBLE or not visible):
            stray = f"the {what} contains an invisible character ({_show(char)})"
    if not visible:
        if marked:
            return f"the {what} is only accents: it has no letter to carry them"
        return f"the {what} shows nothing: it is made of blank or invisible characters"
    return stray


def name_problem(name: str, reserved: Iterable[str] = ()) -> str | None:
    """Why ``name`` may not be used as a player's name, or None if it may.

    Refused: names that show nothing (only blank or invisible characters), only
    accents, too many accents on one letter, a leading accent, an invisible character
    other than the joiners and selectors that shape the character before them, a blank
    other than the plain space, an asterisk or a look-alike of one (:data:`ASTERISKS`:
    the mark of the bots' names), and names with the same :func:`skeleton` as one of
    ``reserved``. Never raises, whatever the text.
    """
    problem = _visibility(name, "name", strict=True)
    if problem is not None:
        return problem
    key = skeleton(name)
    star = next((c for c in name if ord(c) in ASTERISKS), "*" if "*" in key else None)
    if star is not None:
        shown = "*" if star == "*" else f"{star} ({_show(star)})"
        return f"a name may not hold an asterisk, {shown}: it marks the server's bots"
    for other in reserved:
        if skeleton(other) == key:
            if other == name:
                return f"{other} is a reserved name"
            return f"the name looks like {other}, a reserved name"
    return None


def chat_problem(text: str) -> str | None:
    """Why ``text`` may not be sent as a chat line, or None if it may: a line must
    show something, and no letter may carry too many accents. Spaces, emoji, any
    script and accents within those limits are fine. Never raises, whatever the text.
    """
    return _visibility(text, "line", strict=False)
