"""Names people can tell apart (``maumau.server.names``): the skeleton that names are
compared by, and the rules that refuse names and chat lines showing nothing, or a
letter buried under accents.

The cases come from a play-tester (``Аnn`` with a Cyrillic А next to ``Ann``, ``Аda``
next to the bot Ada, U+3164, U+2800, a letter with 23 accents), from the
confusables data (what ``0``, ``1``, ``I`` and ``m`` become) and from real names in
many scripts, which must stay usable and distinct.
"""

from __future__ import annotations

import time
import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from maumau.server import names
from maumau.server.names import chat_problem, name_problem, skeleton

# A list of reserved names (the bots' names were reserved so, before they got their "*").
RESERVED = ("Ada", "Bert", "Cleo", "Dan", "Edda", "Finn", "Greta", "Hugo", "Ines", "Jo")

# Characters that exercise every path: look-alikes in several scripts and cases,
# compatibility forms, case-folding oddities, invisible and blank characters, marks.
TRICKY = (
    "AaIil1|0OomMrnNvVyYuUbBsSkKhHpPcCeExX3"
    "АаВвЕеКкМмНнОоРрСсТтХхУуІіЈјЅѕЗзЬь"
    "ΑαΒβΕεΖζΗηΙιΚκΜμΝνΟοΡρΤτΥυΧχΣσςϲϹ"
    "ＡａＩｌ𝐀𝐚𝐈𝚴𝛎ⅠⅰℐſßẞİıﬁǅĲ①➀゛゙ᴾ"
    "\u00ad\u034f\u115f\u1160\u200b\u200c\u200d\u200e\u202e\u2060\u3164\ufe0f\ufeff"
    "\uffa0\U000e0001\U000e0067\U000e0100\u2800\u3000\u00a0\t\n \U0001d159"
    "\u0300\u0301\u0302\u0308\u0323\u0338\u05bc\u05c1\u0f92\u0fb2\u0f7c\u0e35\u0e49"
    "\u20dd\u0489\u093e\u0941"
    "李雷🎲❤"
)
ANY_TEXT = st.text(
    st.one_of(st.characters(exclude_categories=()), st.sampled_from(TRICKY)), max_size=40
)


# --- the skeleton -------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        "Ann",
        "ann",
        "ANN",
        "aNn",
        "Аnn",  # Cyrillic capital A
        "аnn",  # Cyrillic small a
        "Αnn",  # Greek capital alpha
        "Ａｎｎ",  # fullwidth
        "𝐀𝐧𝐧",  # mathematical bold
        "A\u200bnn",  # a zero width space inside
        "Ann\ufe0f",  # a variation selector
    ],
)
def test_look_alikes_of_ann_share_one_skeleton(variant: str) -> None:
    assert skeleton(variant) == skeleton("Ann") == "ann"


# Cyrillic and Greek letters drawn like a Latin letter, capitals and small ones.
LATIN_LOOK_ALIKES = {
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
    "ј": "j", "ѕ": "s", "к": "k", "м": "m", "н": "h", "т": "t", "в": "b", "һ": "h",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "α": "a", "ο": "o", "ι": "i", "ρ": "p",
}  # fmt: skip


@pytest.mark.parametrize(("look_alike", "latin"), sorted(LATIN_LOOK_ALIKES.items()))
def test_cyrillic_and_greek_look_alikes_map_to_latin(look_alike: str, latin: str) -> None:
    assert skeleton(look_alike) == skeleton(latin)
    assert skeleton(look_alike).isascii()


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        # What the confusables data says, pinned (the module docstring explains each).
        ("J0hn", "John", True),  # 0 looks like O
        ("A1ex", "Alex", True),  # 1 looks like l
        ("A|ex", "Alex", True),  # | looks like l
        ("Mona", "rnona", True),  # m looks like rn
        ('Ann"', "Ann''", True),  # a prototype may be several characters
        ("Ian", "ian", True),  # case does not count ...
        ("Ian", "lan", False),  # ... so I is i, not l (the data's I → l loses to case)
        ("Ines", "lnes", False),
        ("Ιan", "Ian", True),  # Greek, fullwidth and mathematical capitals I are I
        ("Ｉan", "Ian", True),
        ("𝐈an", "Ian", True),
        ("Νina", "Nina", True),  # Greek capital nu is N ...
        ("νera", "vera", False),  # ... so its small letter is n, not v
        ("Υannis", "Yannis", True),
        ("Βert", "Bert", True),  # Greek capital beta is B (not ss from ß)
        ("σ", "o", True),  # small sigma looks like o; its LUNATE form's C does not count
        ("Straße", "Strasse", True),  # case folding
        ("Ⅸ", "IX", True),  # compatibility forms
        ("Привет", "Привeт", True),  # a Latin e hidden in a Cyrillic name
        ("Ann Lee", "Ann  Lee", True),  # the number and kind of blanks between words
        ("Ann Lee", "Ann\u2800Lee", True),
        ("Ann Lee", "AnnLee", False),
        # Real names stay apart from their unaccented neighbours.
        ("Zoë", "Zoe", False),
        ("José", "Jose", False),
        ("Søren", "Soren", False),
        ("Łukasz", "Lukasz", False),
        ("Ōtsuka", "Otsuka", False),
        ("Ōtsuka", "Otsuka\u0304", False),
    ],
)
def test_what_counts_as_the_same_name(one: str, other: str, same: bool) -> None:
    assert (skeleton(one) == skeleton(other)) is same, (skeleton(one), skeleton(other))


def test_ascii_keeps_its_own_lines() -> None:
    # ASCII characters follow only their own lines of the data (0 → O, 1 → l, m → rn,
    # " → ''), never a line of a look-alike that folds to them ("−" is a minus sign).
    for cp in range(0x20, 0x7F):
        assert skeleton(chr(cp)).isascii(), chr(cp)
    assert skeleton("Jean–Luc") == skeleton("Jean−Luc") == skeleton("Jean-Luc") == "jean-luc"


def test_composed_and_decomposed_accents_are_one_name() -> None:
    assert skeleton("Jos\u00e9") == skeleton("Jose\u0301")
    assert skeleton("Nguy\u1ec5n") == skeleton(unicodedata.normalize("NFD", "Nguyễn"))


REAL_NAMES = (
    "Ann", "Zoë", "José", "Søren", "Łukasz", "Ōtsuka", "李雷", "王芳", "Привет",
    "Наташа", "Νίκος", "Γιώργος", "Ελένη", "محمد", "فاطمة", "علی\u200cرضا", "אביגיל",
    "अनु", "प्रिया", "Nguyễn", "Trần Thị", "སྒྲོལ་མ", "ธิดา", "김민준", "さくら", "Ayşe",
    "Bjørn", "Çelik", "O'Brien", "Jean-Luc", "🎲", "❤\ufe0f", "🃏 Joker",
)  # fmt: skip


def test_real_names_are_accepted_and_stay_distinct() -> None:
    for name in REAL_NAMES:
        assert name_problem(name, RESERVED) is None, name
    keys = [skeleton(name) for name in REAL_NAMES]
    assert len(set(keys)) == len(keys)


def test_emoji_names_are_their_own_skeleton() -> None:
    assert skeleton("🎲") == "🎲"
    assert skeleton("🎲") != skeleton("🃏")
    assert skeleton("❤\ufe0f") == skeleton("❤")


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_TEXT)
@example("゛")
@example("ǅ\u0301ſ")
def test_skeleton_is_idempotent(text: str) -> None:
    key = skeleton(text)
    assert skeleton(key) == key


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_TEXT)
@example("ian")
@example("νικος")
def test_skeleton_is_blind_to_case(text: str) -> None:
    upper = text.upper()
    if upper.casefold() == text.casefold():  # where case maps simply (not ı, ς, ...)
        assert skeleton(upper) == skeleton(text)


def test_every_prototype_is_a_fixed_point() -> None:
    table = names._table()
    assert len(table) > 5000  # built from the package's data, not a hand-made list
    for cp, prototype in table.items():
        assert names._fold(prototype.translate(table)) == prototype, hex(cp)


def test_folding_is_stable_for_every_code_point_of_the_first_two_planes() -> None:
    for cp in range(0x20000):
        char = chr(cp)
        folded = names._fold(char)
        assert names._fold(folded) == folded, hex(cp)


def test_chains_that_never_settle_are_dropped() -> None:
    step = {"a": "b", "b": "c", "x": "y", "y": "x", "g": "gg", "h": "x", "k": "kg"}
    closed = names._closure(step)
    assert closed == {"a": "c", "b": "c"}


def test_skeleton_is_fast() -> None:
    skeleton("warm up")
    many = [f"Spieler{i:04d}Müller"[:16] for i in range(2000)]  # distinct: no cache hits
    start = time.perf_counter()
    for name in many:
        skeleton(name)
    per_call = (time.perf_counter() - start) / len(many)
    assert per_call < 200e-6, f"{per_call * 1e6:.1f} µs per 16-character name"


# --- names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER
        "\u3164\u3164\u3164",
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\u115f\u1160",
        "\u2800",  # BRAILLE PATTERN BLANK
        "\u2800" * 16,
        "\u200b",  # ZERO WIDTH SPACE
        "\u200b\u200b\u200b",
        "\u200d\ufe0f",
        "\u3000",
        "\U0001d159",
        "\u2800\u3164\u200b",
    ],
)
def test_names_that_show_nothing_are_refused(name: str) -> None:
    assert name_problem(name) == (
        "the name shows nothing: it is made of blank or invisible characters"
    )


@pytest.mark.parametrize("accents", ["\u0301", "\u0301\u0300", "\u0302\u0323"])
def test_one_or_two_accents_on_a_letter_are_fine(accents: str) -> None:
    assert name_problem("Ze" + accents + "d") is None


@pytest.mark.parametrize(
    "name",
    [
        "Ann" + "\u0301" * 23,  # the play-tester's
        "e\u0301\u0300\u0302",  # three above
        "e\u0323\u0324\u0325",  # three below
        "e\u20dd\u20dd\u20dd",  # three enclosing circles
        "Vi\u1ec7\u0301t",  # ệ (two, precomposed) and one more
        "e\u0301\u200b\u0301\u200b\u0301",  # invisible characters do not separate them
        "e\u0f92\u0f92\u0f92\u0f92\u0f92",  # five marks of any kind
    ],
)
def test_a_letter_buried_under_accents_is_refused(name: str) -> None:
    assert name_problem(name) == "too many accents on one letter"


def test_scripts_that_stack_marks_of_class_zero_are_fine() -> None:
    assert name_problem("སྒྲོལ་མ") is None  # Drolma: three marks, one of them an accent
    assert name_problem("Nguyễn") is None  # two accents on one letter
    assert name_problem("ธิ์") is None
    assert name_problem("ש\u05bc\u05c1\u05b8") == "too many accents on one letter"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("\u0301", "the name is only accents: it has no letter to carry them"),
        ("\u0301\u0302", "the name is only accents: it has no letter to carry them"),
        ("\u2800\u0301", "the name is only accents: it has no letter to carry them"),
        ("\u0301Ann", "the name starts with an accent that has no letter under it"),
        ("Ann\u3164", "the name contains an invisible character (U+3164 HANGUL FILLER)"),
        ("A\u200bnn", "the name contains an invisible character (U+200B ZERO WIDTH SPACE)"),
        ("\ufe0f\u2764", "the name contains an invisible character (U+FE0F VARIATION SELECTOR-16)"),
        ("Ann\u2800", "the name contains a blank other than a plain space "
         "(U+2800 BRAILLE PATTERN BLANK)"),
        ("Ann\u3000Lee", "the name contains a blank other than a plain space "
         "(U+3000 IDEOGRAPHIC SPACE)"),
        ("Ann\tLee", "the name contains a blank other than a plain space "
         "(U+0009)"),
    ],
)  # fmt: skip
def test_reasons(name: str, reason: str) -> None:
    assert name_problem(name) == reason


def test_default_ignorable_code_points() -> None:
    for char in "\u00ad\u115f\u1160\u200b\u200f\u2060\u3164\ufe0f\ufeff\uffa0\U000e0001":
        assert names.is_default_ignorable(char), hex(ord(char))
    for char in "a \u2800\u0301\u3000\u200a\U000f0000":
        assert not names.is_default_ignorable(char), hex(ord(char))


def test_joiners_and_selectors_after_a_visible_character_are_fine() -> None:
    assert name_problem("❤\ufe0f") is None
    assert name_problem("👩\u200d💻") is None
    assert name_problem("علی\u200cرضا") is None
    assert name_problem("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f") is None


@pytest.mark.parametrize(
    ("name", "bot"),
    [
        ("Ada", "Ada"),
        ("ada", "Ada"),
        ("ADA", "Ada"),
        ("Аda", "Ada"),  # Cyrillic A
        ("Αda", "Ada"),  # Greek Alpha
        ("Ａｄａ", "Ada"),
        ("Ada\u200b", "Ada"),  # refused for the invisible character first
        ("Вert", "Bert"),
        ("Βert", "Bert"),
        ("Сleo", "Cleo"),
        ("Cl\u0435o", "Cleo"),
        ("Ⅾan", "Dan"),
        ("Εdda", "Edda"),
        ("Fіnn", "Finn"),
        ("Grеta", "Greta"),
        ("Нugo", "Hugo"),
        ("Hug0", "Hugo"),
        ("Ιnes", "Ines"),
        ("Іnes", "Ines"),
        ("Јo", "Jo"),
        ("J0", "Jo"),
    ],
)
def test_reserved_names_and_their_look_alikes_are_refused(name: str, bot: str) -> None:
    problem = name_problem(name, RESERVED)
    assert problem is not None
    if name == bot:
        assert problem == f"{bot} is a reserved name"
    elif name.isprintable():
        assert problem == f"the name looks like {bot}, a reserved name"


def test_names_near_reserved_ones_but_not_alike_are_fine() -> None:
    for name in ("Adam", "Bertha", "Cleon", "Dana", "Eddie", "Fin", "Gret", "Hugh", "Inez"):
        assert name_problem(name, RESERVED) is None, name


def test_reserved_names_are_compared_by_skeleton_both_ways() -> None:
    assert name_problem("Ann", ["Аnn"]) == "the name looks like Аnn, a reserved name"
    assert name_problem("Ann", iter(["Bob", "ANN"])) == "the name looks like ANN, a reserved name"


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_TEXT, st.lists(ANY_TEXT, max_size=3))
@example("\ud800", ["\udfff"])
def test_name_problem_never_raises(name: str, reserved: list[str]) -> None:
    problem = name_problem(name, reserved)
    assert problem is None or (problem and "\n" not in problem and len(problem) < 200)
    chat = chat_problem(name)
    assert chat is None or (chat and "\n" not in chat)


@settings(max_examples=200)
@given(ANY_TEXT)
def test_a_name_refused_for_visibility_is_refused_whatever_is_reserved(name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        assert name_problem(name, RESERVED) == problem


# --- chat -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "hi",
        "good game, everyone!",
        "  spaced   out  ",
        "🎲🎲🎲",
        "李雷: 再来一局?",
        "Привет всем",
        "Tiếng Việt có dấu",
        "ça va? Øl! Ōsaka",
        "مرحبا",
        "नमस्ते",
        "x" * 200,
    ],
)
def test_ordinary_chat_is_fine(line: str) -> None:
    assert chat_problem(line) is None


NOTHING = "the line shows nothing: it is made of blank or invisible characters"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("\u2800" * 200, NOTHING),
        ("   ", NOTHING),
        ("\u3164\u200b \u2800", NOTHING),
        ("\u0301\u0301", "the line is only accents: it has no letter to carry them"),
        ("hello" + "\u0301\u0300\u0302" + " there", "too many accents on one letter"),
        ("Z\u0351\u0352\u0353\u0354a\u0355l\u0356g\u0357o", "too many accents on one letter"),
    ],
)  # fmt: skip
def test_chat_that_shows_nothing_or_buries_a_letter_is_refused(line: str, reason: str) -> None:
    assert chat_problem(line) == reason


def test_chat_is_not_held_to_the_name_rules() -> None:
    assert chat_problem("\u0301 leading accent") is None
    assert chat_problem("two\u3000words\u2800and a filler\u3164") is None


def test_the_bots_names_are_free_for_people_and_the_bots_mark_is_not() -> None:
    from maumau.server.bots import BOT_MARK, BOT_NAMES

    for bot in BOT_NAMES:
        assert bot.endswith(BOT_MARK)
        assert name_problem(bot) is not None, bot
        person = bot.removesuffix(BOT_MARK)
        assert name_problem(person) is None, person
        assert skeleton(person) != skeleton(bot)


@pytest.mark.parametrize(
    "name",
    [
        "Ada*",
        "*Zoe*",
        "Jo\u204e",
        "Ada\u2217",
        "Zoe\uff0a",
        "Kim\u2731",
        "Ann\u066d",
        "Al\U0001f7b6",
    ],
)
def test_no_name_may_hold_an_asterisk_or_a_look_alike_of_one(name: str) -> None:
    problem = name_problem(name)
    assert problem is not None and "asterisk" in problem and "bots" in problem
