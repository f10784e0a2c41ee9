"""Table settings: the variant, the seats, the target, every house rule and timing.

A :class:`Settings` is chosen when a table is created and never changes during a
match. Build one with :meth:`Settings.create` (keyword overrides on top of the
variant's defaults) or :meth:`Settings.from_dict` (a mapping from the wire). Both
reject an unknown setting, a value of the wrong type, a value out of range, and a
house rule that belongs to the other variant, with a :class:`SettingsError` whose
message names the setting.

:meth:`Settings.as_written` is the preset of the rules as the seeds write them (see
:mod:`maumau.protocol.as_written`, which says which settings are rules and what their
literal reading is).

The timing settings (``mau_window_ms``, ``turn_timeout_s``, ``reconnect_grace_s``,
``lag_compensation*``) are carried here so that one object describes a table, but
the engine never reads a clock: the server measures time and reports its results to
the engine as actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from maumau.protocol.as_written import AS_WRITTEN

Variant = Literal["classic", "american"]
VARIANTS: tuple[Variant, ...] = ("classic", "american")


class SettingsError(ValueError):
    """A table setting is unknown, of the wrong type, or out of range."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(f"{setting}: {message}")
        self.setting = setting


# name -> (type, minimum, maximum, variant it belongs to or None for both, help)
_SPEC: dict[str, tuple[type, int, int, Variant | None, str]] = {
    "seats": (int, 2, 10, None, "number of players at the table"),
    "target_score": (int, 1, 100_000, None, "points that win the match"),
    "deals": (int, 0, 1_000, None, "deals after which the match ends (0: none)"),
    "mau_penalty": (int, 1, 10, None, "cards drawn by a player caught not saying Mau"),
    "false_catch_penalty": (int, 0, 10, None, "cards drawn for catching nobody"),
    "mau_window_ms": (int, 100, 30_000, None, "shortest call window after a play"),
    "mau_window_minimum": (
        bool,
        0,
        1,
        None,
        "a call window stays open mau_window_ms even after the next player acts",
    ),
    "lag_compensation": (bool, 0, 1, None, "move call/catch stamps earlier by one-way delay"),
    "lag_compensation_max_ms": (int, 0, 1_000, None, "cap on the lag compensation shift"),
    "turn_timeout_s": (int, 5, 3_600, None, "seconds before the server acts for a player"),
    "reconnect_grace_s": (int, 0, 3_600, None, "seconds before a bot plays a dropped seat"),
    "reverse_skips_with_two": (bool, 0, 1, None, "with 2 players a 9/Reverse skips"),
    "jack_on_jack": (bool, 0, 1, "classic", "a Jack may be played on a Jack"),
    "stack_draw_two": (bool, 0, 1, "american", "a Draw Two may answer a Draw Two"),
    "wild_draw_four_challenge": (bool, 0, 1, "american", "a Wild Draw Four may be challenged"),
}

_SEAT_RANGE: dict[Variant, tuple[int, int]] = {"classic": (2, 4), "american": (2, 10)}


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that makes one table's match what it is. Immutable."""

    variant: Variant = "classic"
    seats: int = 4
    target_score: int = 150
    deals: int = 0
    mau_penalty: int = 2
    false_catch_penalty: int = 0
    mau_window_ms: int = 1500
    mau_window_minimum: bool = True
    lag_compensation: bool = False
    lag_compensation_max_ms: int = 200
    turn_timeout_s: int = 45
    reconnect_grace_s: int = 60
    reverse_skips_with_two: bool = False
    jack_on_jack: bool = True
    stack_draw_two: bool = False
    wild_draw_four_challenge: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise SettingsError(
                "variant", f"must be one of {', '.join(VARIANTS)}, not {self.variant!r}"
            )
        for name, (kind, low, high, _, _) in _SPEC.items():
            value = getattr(self, name)
            if kind is bool:
                if not isinstance(value, bool):
                    raise SettingsError(name, f"must be true or false, not {value!r}")
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise SettingsError(name, f"must be a whole number, not {value!r}")
            if name != "seats" and not low <= value <= high:
                raise SettingsError(name, f"must be between {low} and {high}, not {value}")
        low, high = _SEAT_RANGE[self.variant]
        if not low <= self.seats <= high:
            raise SettingsError(
                "seats", f"{self.variant} is played by {low} to {high} players, not {self.seats}"
            )

    @property
    def is_classic(self) -> bool:
        return self.variant == "classic"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return 5 if self.variant == "classic" else 7

    @staticmethod
    def defaults(variant: Variant) -> dict[str, Any]:
        """The default value of every setting for ``variant``."""
        if variant not in VARIANTS:
            raise SettingsError("variant", f"must be one of {', '.join(VARIANTS)}, not {variant!r}")
        values = {f.name: f.default for f in fields(Settings)}
        values["variant"] = variant
        if variant == "american":
            values.update(seats=4, target_score=500, reverse_skips_with_two=True)
        return values

    @classmethod
    def create(cls, variant: Variant = "classic", **overrides: Any) -> Settings:
        """Settings for ``variant``: its defaults, with ``overrides`` applied and checked."""
        return cls.from_dict({"variant": variant, **overrides})

    @classmethod
    def as_written(cls, variant: Variant = "classic", **overrides: Any) -> Settings:
        """The preset "as written": ``variant``'s defaults with every rule at the seeds'
        literal reading (:data:`maumau.protocol.as_written.AS_WRITTEN`), then
        ``overrides`` (the seats, the clocks) applied and checked."""
        if variant not in VARIANTS:
            raise SettingsError("variant", f"must be one of {', '.join(VARIANTS)}, not {variant!r}")
        return cls.from_dict({"variant": variant, **AS_WRITTEN[variant], **overrides})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from a mapping; ``variant`` defaults to classic, the rest to its defaults."""
        if not isinstance(data, Mapping):
            raise SettingsError("settings", "must be a map of setting names to values")
        variant = data.get("variant", "classic")
        values = cls.defaults(variant)
        for name, value in data.items():
            if name == "variant":
                continue
            if name not in _SPEC:
                known = ", ".join(sorted(_SPEC))
                raise SettingsError(str(name), f"is not a table setting (known: variant, {known})")
            belongs = _SPEC[name][3]
            if belongs is not None and belongs != variant:
                raise SettingsError(name, f"is a house rule of {belongs}, not of {variant}")
            values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """Every setting that applies to this variant, for the wire and for display."""
        data = asdict(self)
        for name, (_, _, _, belongs, _) in _SPEC.items():
            if belongs is not None and belongs != self.variant:
                del data[name]
        return data

    @staticmethod
    def describe(name: str) -> str:
        """One line of help for a setting."""
        return _SPEC[name][4]
