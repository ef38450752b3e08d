"""How well the time grammar reads what people type: every phrase of tests/unit/one_shot_corpus.tsv and
tests/unit/phrase_families.tsv is sent as a one-shot `time` for its reference `now`, and every phrase of
tests/unit/recurring_corpus.tsv as a recurring `cron`; each answer is one of

  - meant: resolved to the expected instant, or refused where a refusal is expected;
  - refused: refused where an instant is expected (the user is asked again: safe, but a miss);
  - misread: resolved to another instant, or resolved where a refusal is expected (the worst case).

    python -m bench.phrases [--show refused|misread|all] [--dateparser]

The held-out part (tests/unit/held_out_corpus.tsv and held_out_recurring.tsv, written by
bench/phrases_held_out.py before the grammar was made general, and never tuned against) is scored apart,
after the first; then the phrases written outside the project (bench/phrases_outside.py). The figures are
printed overall, by language, by kind and by family (the twelve-hour clock, clock words, fractions, dates,
zones, holidays, recurring phrases, conventions, and must-refuse phrases).

`--dateparser` measures the dateparser package on the same table for comparison (when it is installed:
it is not a dependency), with PREFER_DATES_FROM=future, the same zone and reference time, the language's
day order, and the day it reads for a date without a time of day taken at cronbell's default hour.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "unit" / "one_shot_corpus.tsv"
FAMILIES_CORPUS = ROOT / "tests" / "unit" / "phrase_families.tsv"
RECURRING_CORPUS = ROOT / "tests" / "unit" / "recurring_corpus.tsv"
# written before the grammar was made general and never tuned against (bench/phrases_held_out.py)
HELD_OUT = ROOT / "tests" / "unit" / "held_out_corpus.tsv"
HELD_OUT_RECURRING = ROOT / "tests" / "unit" / "held_out_recurring.tsv"
HELD_OUT_FAMILIES = (
    "seconds", "end_of_day", "from_a_day", "weekday_day", "number_words", "coming_weekday", "clock_parts", "layouts",
    "holidays", "contradictions", "recurring",
)  # fmt: skip
REFUSE = "refuse"
KINDS = ("date", "datetime", "time", "relative")
FAMILIES = (
    "twelve_hour", "clock_words", "fractions", "dates", "zones", "holidays", "recurring", "conventions", "refuse",
)  # fmt: skip


@dataclass(frozen=True)
class Row:
    phrase: str
    language: str
    zone: ZoneInfo
    now: datetime  # aware, in `zone`
    kind: str
    expected: datetime | None  # aware, in `zone`; None: a refusal is expected
    family: str = ""  # the family of phrases it belongs to (phrase_families.tsv); "" in the first corpus


def load(path: Path = CORPUS) -> list[Row]:
    """Rows of `phrase, language, zone, now, kind, expected[, family]`."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        phrase, language, zone_name, now, kind, expected, *family = line.split("\t")
        zone = ZoneInfo(zone_name)
        wanted = None if expected == REFUSE else datetime.strptime(expected, "%Y-%m-%d %H:%M").replace(tzinfo=zone)
        at = datetime.fromisoformat(now).replace(tzinfo=zone)
        rows.append(Row(phrase, language, zone, at, kind, wanted, family[0] if family else ""))
    return rows


@dataclass(frozen=True)
class RecurringRow:
    phrase: str
    language: str
    expected: str | None  # the five-field expression meant; None: a refusal is expected
    family: str = "recurring"


def load_recurring(path: Path = RECURRING_CORPUS) -> list[RecurringRow]:
    """Rows of `phrase, language, expected cron or refuse`."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        phrase, language, expected = line.split("\t")
        rows.append(RecurringRow(phrase, language, None if expected == REFUSE else expected))
    return rows


def recurring_outcome(row: RecurringRow) -> tuple[str, str | None]:
    """(meant / refused / misread, the expression read)."""
    from cronbell.core.domain.refusals import ToolError
    from cronbell.core.language.recurring import parse_recurring

    try:
        got = parse_recurring(row.phrase, 5, row.language).expr
    except ToolError:
        return ("meant" if row.expected is None else "refused"), None
    if row.expected is not None and got == parse_recurring(row.expected, 5).expr:
        return "meant", got
    return "misread", got


Reader = Callable[[Row], "datetime | None"]  # the instant read, or None when refused


def cronbell_reader(row: Row) -> datetime | None:
    from cronbell.core.domain.refusals import ToolError
    from cronbell.core.language.when import parse_one_shot

    try:
        return parse_one_shot(row.phrase, row.now, row.zone, row.language).at
    except ToolError:
        return None


def verdict(row: Row, got: datetime | None) -> str:
    if got is None:
        return "meant" if row.expected is None else "refused"
    if row.expected is not None and got.astimezone(UTC) == row.expected.astimezone(UTC):
        return "meant"
    return "misread"


@dataclass
class Score:
    answerable: int = 0  # rows that expect an instant
    meant: int = 0  # of those, resolved as meant
    refused: int = 0  # of those, refused
    misread: int = 0  # any row resolved to an instant it does not mean
    refusals: int = 0  # rows that expect a refusal
    refused_right: int = 0  # of those, refused

    def add(self, row: Row, outcome: str) -> None:
        if row.expected is None:
            self.refusals += 1
        else:
            self.answerable += 1
        self.meant += outcome == "meant" and row.expected is not None
        self.refused_right += outcome == "meant" and row.expected is None
        self.refused += outcome == "refused"
        self.misread += outcome == "misread"

    def line(self, label: str) -> str:
        share = 100 * self.meant / self.answerable if self.answerable else 0.0
        return (
            f"{label:<14} {self.meant:>4}/{self.answerable:<4} {share:5.1f}% resolved as meant   "
            f"{self.refused:>3} refused   {self.misread:>3} misread   "
            f"refusals as meant {self.refused_right}/{self.refusals}"
        )


def measure(rows: Iterable[Row], read: Reader) -> tuple[dict[str, Score], list[tuple[Row, datetime | None, str]]]:
    """Scores overall ('all'), by language and by kind, and each row's answer."""
    scores: dict[str, Score] = {}
    answers = []
    for row in rows:
        got = read(row)
        outcome = verdict(row, got)
        answers.append((row, got, outcome))
        family = [row.family, f"{row.language} {row.family}"] if row.family else []
        for key in ("all", row.language, row.kind, f"{row.language} {row.kind}", *family):
            scores.setdefault(key, Score()).add(row, outcome)
    return scores, answers


def report(title: str, scores: dict[str, Score], families: tuple[str, ...] = FAMILIES) -> None:
    print(title)
    keys = ["all", "en", "es", *KINDS, *(f"{lang} {kind}" for lang in ("en", "es") for kind in KINDS)]
    keys += [key for family in families for key in (family, f"en {family}", f"es {family}")]
    for key in keys:
        if key in scores:
            print("  " + scores[key].line(key))


def add_recurring(scores: dict[str, Score], rows: list[RecurringRow], show: str | None) -> None:
    """Score the recurring phrases into `scores` (overall, by language, as the family 'recurring')."""
    for row in rows:
        outcome, got = recurring_outcome(row)
        for key in ("all", row.language, row.family, f"{row.language} {row.family}"):
            score = scores.setdefault(key, Score())
            score.refusals += row.expected is None
            score.answerable += row.expected is not None
            score.meant += outcome == "meant" and row.expected is not None
            score.refused_right += outcome == "meant" and row.expected is None
            score.refused += outcome == "refused"
            score.misread += outcome == "misread"
        if show and outcome != "meant" and show in ("all", outcome):
            print(f"    {outcome:<8} {row.language} {row.phrase!r}: {got or REFUSE} != {row.expected or REFUSE}")


def dateparser_reader() -> Reader:
    import dateparser  # type: ignore[import-not-found,import-untyped,unused-ignore]

    def read(row: Row) -> datetime | None:
        settings = {
            "PREFER_DATES_FROM": "future",
            "RELATIVE_BASE": row.now.replace(tzinfo=None),
            "TIMEZONE": row.zone.key,
            "RETURN_AS_TIMEZONE_AWARE": False,
            "DATE_ORDER": "MDY" if row.language == "en" else "DMY",
        }
        got = dateparser.parse(row.phrase, languages=[row.language], settings=settings)
        if got is None:
            return None
        got = got.replace(second=0, microsecond=0, tzinfo=row.zone)
        if row.kind == "date":  # dateparser has no default hour: give its day cronbell's, 09:00
            got = got.replace(hour=9, minute=0)
        return got if got > row.now else None  # a past instant would be refused

    return read


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", choices=("refused", "misread", "all"), help="list the rows with that answer")
    parser.add_argument("--dateparser", action="store_true", help="measure dateparser on the same table too")
    parser.add_argument("--corpus", type=Path, help="another table of the same columns, measured alone")
    parser.add_argument("--held-out", action="store_true", help="measure only the held-out part")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    import cronbell.core.language.when  # noqa: F401  (the grammar's import time, printed below)

    print(f"grammar imported in {1000 * (time.perf_counter() - started):.0f} ms")
    parts: list[tuple[str, list[Row], list[RecurringRow], tuple[str, ...]]] = []
    if args.corpus:
        parts.append(("", load(args.corpus), [], FAMILIES))
    else:
        if not args.held_out:
            parts.append(("", [*load(CORPUS), *load(FAMILIES_CORPUS)], load_recurring(), FAMILIES))
        parts.append(("held out: ", load(HELD_OUT), load_recurring(HELD_OUT_RECURRING), HELD_OUT_FAMILIES))
    for label, rows, recurring, families in parts:
        print(f"{label}{len(rows)} one-shot and {len(recurring)} recurring phrases")
        readers: list[tuple[str, Reader]] = [("cronbell", cronbell_reader)]
        if args.dateparser:
            readers.append(("dateparser", dateparser_reader()))
        for name, read in readers:
            scores, answers = measure(rows, read)
            if name == "cronbell":
                add_recurring(scores, recurring, args.show)
            report(f"{label}{name}", scores, families)
            for row, got, outcome in answers:
                if args.show and outcome != "meant" and args.show in ("all", outcome):
                    shown = f"{got:%Y-%m-%d %H:%M}" if got else REFUSE
                    wanted = f"{row.expected:%Y-%m-%d %H:%M}" if row.expected else REFUSE
                    when = f"{row.now:%a %Y-%m-%d %H:%M}"
                    print(f"    {outcome:<8} {row.language} {when} {row.phrase!r}: {shown} != {wanted}")
    if not args.corpus:
        from bench import phrases_outside

        phrases_outside.main(["--show"] if args.show else [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
