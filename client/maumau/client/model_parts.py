"""How :class:`~maumau.client.model.Model` shows what its parts keep as its own.

Theory of operation
-------------------
The view model is made of parts, each holding the state of one concept and folding
in the messages about it: the table shown (:mod:`~maumau.client.model_table`), the
lobby (:mod:`~maumau.client.model_lobby`), the followed tournament
(:mod:`~maumau.client.model_tournament`), the host's powers and notices
(:mod:`~maumau.client.model_host`) and the records
(:mod:`~maumau.client.model_records`). Screens, widgets and tests read the model as
one object (``model.view``, ``model.hand()``, ``model.lobby_chat``): each such name
is declared on the model's class by one line with a descriptor from here, which
says which part keeps it. The model's class so lists its whole surface, and each
part stays small and knows nothing of the others.

- :class:`Kept` is an attribute a part keeps, read and written through the model
  (``model.table`` is ``model.table_part.table``). Its type is written where it is
  declared.
- :func:`derived` is a part's property and :func:`asked` a part's method, read
  through the model (``model.my_turn``, ``model.hand()``). Both take their type from
  the part's own definition, so mypy checks every use against the part.

A descriptor names its part by the model's attribute that holds it (``"table_part"``),
read at every use: nothing is copied, so the model and its part never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")


class Kept(Generic[T]):
    """An attribute kept by the part held in the model's attribute ``part``, under
    ``name`` there (by default the model's own name for it)."""

    def __init__(self, part: str, name: str | None = None) -> None:
        self.part = part
        self.name = name or ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    @overload
    def __get__(self, model: None, owner: type) -> Kept[T]: ...

    @overload
    def __get__(self, model: object, owner: type) -> T: ...

    def __get__(self, model: object | None, owner: type) -> Kept[T] | T:
        if model is None:
            return self
        value: T = getattr(getattr(model, self.part), self.name)
        return value

    def __set__(self, model: object, value: T) -> None:
        setattr(getattr(model, self.part), self.name, value)


class Read(Generic[T]):
    """A part's property or method, read through the model (made by :func:`derived`
    or :func:`asked`, which type it)."""

    def __init__(self, part: str, member: Any) -> None:
        self.part = part
        self.member = member  # the part's property, or its function

    @overload
    def __get__(self, model: None, owner: type) -> Read[T]: ...

    @overload
    def __get__(self, model: object, owner: type) -> T: ...

    def __get__(self, model: object | None, owner: type) -> Read[T] | T:
        if model is None:
            return self
        # A property gives its value, a function the method bound to the part.
        value: T = self.member.__get__(getattr(model, self.part), None)
        return value


def derived(part: str, getter: Callable[[Any], R]) -> Read[R]:
    """The property ``getter`` (written ``Part.name``) of the part held in ``part``."""
    return Read(part, getter)


def asked(part: str, method: Callable[Concatenate[Any, P], R]) -> Read[Callable[P, R]]:
    """The method ``method`` (written ``Part.name``) of the part held in ``part``."""
    return Read(part, method)
