"""`@value` behaves as `@dataclass(frozen=True)` does wherever cronbell uses it, without compiling."""

from __future__ import annotations

import copy
import inspect
import pickle
from dataclasses import FrozenInstanceError, asdict, dataclass, field, fields, replace

import pytest

from cronbell.core.values import value
from tests.support.aws import ROOT


@value
class Point:
    """A picklable value (defined at module level)."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    secret: str = field(default="", repr=False, compare=False)


@dataclass(frozen=True)
class Twin:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    secret: str = field(default="", repr=False, compare=False)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((1,), {}), ((1, 2), {}), ((), {"x": 3, "tags": ("a",)}), ((4,), {"secret": "s", "y": 5})],
)
def test_it_builds_shows_and_compares_as_a_frozen_dataclass(args: tuple[int, ...], kwargs: dict[str, object]) -> None:
    ours, theirs = Point(*args, **kwargs), Twin(*args, **kwargs)  # type: ignore[arg-type]
    assert repr(ours).replace("Point", "Twin") == repr(theirs)
    assert asdict(ours) == asdict(theirs)
    assert [f.name for f in fields(ours)] == [f.name for f in fields(theirs)]
    assert Point.__match_args__ == Twin.__match_args__
    assert ours == Point(*args, **kwargs)  # type: ignore[arg-type]
    assert hash(Point(*args, **{**kwargs, "notes": None})) == hash(Point(*args, **{**kwargs, "notes": None}))  # type: ignore[arg-type]


def test_equality_is_by_compared_fields_of_the_same_class() -> None:
    assert Point(1, secret="a") == Point(1, secret="b")
    assert Point(1) != Point(2)
    assert Point(1) != Twin(1)
    assert Point(1).__eq__((1, 0, (), [], "")) is NotImplemented
    nan = float("nan")  # not equal to itself; a field holding it is, as in a dataclass (its tuples)
    assert Point(nan) == Point(nan)  # type: ignore[arg-type]
    assert Twin(nan) == Twin(nan)  # type: ignore[arg-type]


def test_each_instance_gets_its_own_default_from_a_factory() -> None:
    a, b = Point(1), Point(1)
    a.notes.append("n")
    assert b.notes == []


def test_it_is_frozen() -> None:
    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del p.y  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        p.other = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("args", "kwargs", "said"),
    [
        ((), {}, "missing required argument: 'x'"),
        ((1, 2, (), [], "", 6), {}, "takes 5 positional arguments but 6 were given"),
        ((1,), {"z": 1}, "unexpected keyword argument 'z'"),
        ((1,), {"x": 1}, "multiple values for argument 'x'"),
    ],
)
def test_a_wrong_call_is_refused_as_python_refuses_it(
    args: tuple[object, ...], kwargs: dict[str, object], said: str
) -> None:
    with pytest.raises(TypeError, match=said):
        Point(*args, **kwargs)  # type: ignore[arg-type]


def test_replace_copy_and_pickle_keep_the_value() -> None:
    p = Point(1, 2, ("t",), ["n"], "s")
    assert replace(p, y=3) == Point(1, 3, ("t",), ["n"])
    assert replace(p, y=3).secret == "s"
    assert copy.copy(p) == p and copy.deepcopy(p) == p
    assert pickle.loads(pickle.dumps(p)) == p


def test_a_class_that_writes_its_own_methods_stays_a_dataclass() -> None:
    with pytest.raises(TypeError, match="__repr__"):

        @value
        class Shown:
            x: int

            def __repr__(self) -> str:
                return "x"


def test_its_signature_reads_as_a_dataclass_s() -> None:
    assert str(inspect.signature(Point)) == str(inspect.signature(Twin))
    assert Point.__doc__ == "A picklable value (defined at module level)."  # its own docstring is kept


def test_a_class_without_a_docstring_is_documented_by_its_fields() -> None:
    @value
    class Bare:
        x: int
        y: int = 0

    @dataclass(frozen=True)
    class Plain:
        x: int
        y: int = 0

    assert Bare.__doc__ == (Plain.__doc__ or "").replace("Plain", "Bare")


def test_the_layer_defines_its_frozen_classes_with_value() -> None:
    """A frozen dataclass in the layer would cost every cold start that imports it half a millisecond."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "layers" / "common" / "cronbell").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip().startswith("@dataclass(") and "frozen=True" in line
    ]
    assert found == []
