"""Frozen value classes without dataclasses' cost at a cold start.

`@dataclass(frozen=True)` compiles each method it writes from source: six `exec` calls a class, half a
millisecond a class here. A function's cold start defines some sixty of them, which was over half of
cronbell's own import time (`make bench`, `python -X importtime`). `@value` lets dataclasses read the
fields (so `fields`, `replace`, `asdict` and `__match_args__` work as before) with their code
generation off, and gives the class methods shared by every value class instead: `__init__`,
`__repr__`, `__eq__`, `__hash__` and the frozen guards, which compile nothing. A class costs about
0.04 ms to define; an instance costs about a microsecond more to build than a dataclass's.

What a value class does differently from a frozen dataclass: its `__init__` takes only the fields (no
`InitVar`, no `__post_init__`), and it may not define any of the methods `@value` gives it. Its
signature (`inspect.signature`, `help`) is that of a dataclass with the same fields.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from inspect import Parameter, Signature
from typing import Any, TypeVar, dataclass_transform

__all__ = ["field", "value"]

T = TypeVar("T")
_SPEC = "__value_spec__"


class _Factory:
    """A field's default made by its factory, as a signature shows it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


class _Spec:
    """What the shared methods need of a class's fields, computed once when it is defined."""

    __slots__ = ("compared", "defaults", "factories", "hashed", "known", "name", "names", "shown")

    def __init__(self, cls: type) -> None:
        every = fields(cls)
        given = [f for f in every if f.init]
        self.name = cls.__name__
        self.names = tuple(f.name for f in given)
        self.known = frozenset(self.names)
        self.defaults = {f.name: f.default for f in given if f.default is not MISSING}
        self.factories = {f.name: f.default_factory for f in given if f.default_factory is not MISSING}
        self.compared = tuple(f.name for f in every if f.compare)
        self.shown = tuple(f.name for f in every if f.repr)
        self.hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))


def _signature(cls: type, spec: _Spec) -> Signature:
    """The constructor's signature, as a dataclass's reads."""
    kind = Parameter.POSITIONAL_OR_KEYWORD
    defaults = {**dict.fromkeys(spec.factories, _FACTORY), **spec.defaults}
    return Signature(
        [
            Parameter(f.name, kind, default=defaults.get(f.name, Parameter.empty), annotation=f.type)
            for f in fields(cls)
            if f.init
        ],
        return_annotation=None,
    )


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    spec: _Spec = getattr(type(self), _SPEC)
    names, put = spec.names, object.__setattr__
    if len(args) > len(names):
        raise TypeError(f"{spec.name}() takes {len(names)} positional arguments but {len(args)} were given")
    for name, item in zip(names, args, strict=False):
        put(self, name, item)
    for name in names[len(args) :]:
        if name in kwargs:
            put(self, name, kwargs.pop(name))
        elif name in spec.defaults:
            put(self, name, spec.defaults[name])
        elif name in spec.factories:
            put(self, name, spec.factories[name]())
        else:
            raise TypeError(f"{spec.name}() missing required argument: {name!r}")
    for name in kwargs:  # left over: given twice, or not a field
        said = "got multiple values for argument" if name in spec.known else "got an unexpected keyword argument"
        raise TypeError(f"{spec.name}() {said} {name!r}")


def _repr(self: Any) -> str:
    spec: _Spec = getattr(type(self), _SPEC)
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in spec.shown)
    return f"{type(self).__qualname__}({shown})"


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    names = getattr(type(self), _SPEC).compared  # compared as tuples, as a dataclass compares them
    return tuple(getattr(self, name) for name in names) == tuple(getattr(other, name) for name in names)


def _hash(self: Any) -> int:
    return hash(tuple(getattr(self, name) for name in getattr(type(self), _SPEC).hashed))


def _setattr(self: Any, name: str, item: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def value(cls: type[T]) -> type[T]:
    """The class as a frozen value: its annotated fields, with their defaults and `field(...)`s, set
    once by its constructor; equal and hashed by those fields, shown by them."""
    own = _METHODS.keys() & cls.__dict__.keys()
    if own:
        raise TypeError(f"{cls.__name__} defines {sorted(own)}: make it a dataclass instead")
    documented = bool(cls.__doc__)
    cls.__doc__ = cls.__doc__ or cls.__name__  # else dataclasses would read object.__init__'s signature
    cls = dataclass(init=False, repr=False, eq=False)(cls)  # the fields only: it compiles nothing
    spec = _Spec(cls)
    signature = _signature(cls, spec)
    setattr(cls, _SPEC, spec)
    setattr(cls, "__signature__", signature)  # noqa: B010  (what inspect reads first)
    if not documented:  # as a dataclass documents itself
        cls.__doc__ = cls.__name__ + str(signature).replace(" -> None", "")
    for name, method in _METHODS.items():
        setattr(cls, name, method)
    return cls


_METHODS = {
    "__init__": _init,
    "__repr__": _repr,
    "__eq__": _eq,
    "__hash__": _hash,
    "__setattr__": _setattr,
    "__delattr__": _delattr,
}
