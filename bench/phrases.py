"""How well the one-shot grammar reads what people type: every phrase of tests/unit/one_shot_corpus.tsv is
sent as a one-shot `time` for its reference `now`, and each answer is one of

  - meant: resolved to the expected instant, or refused where a refusal is expected;
  - refused: refused where an instant is expected (the user is asked again: safe, but a miss);
  - misread: resolved to another instant, or resolved where a refusal is expected (the worst case).

    python -m bench.phrases [--show refused|misread|all] [--dateparser]

`--dateparser` measures the dateparser package on the same table for comparison (when it is installed:
it is not a dependency), with PREFER_DATES_FROM=future, the same zone and reference time, the language's
day order, and the day it reads for a date without a time of day taken at cronbell's default hour.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "unit" / "one_shot_corpus.tsv"
REFUSE = "refuse"
KINDS = ("date", "datetime", "time", "relative")


@dataclass(frozen=True)
class Row:
    phrase: str
    language: str
    zone: ZoneInfo
    now: datetime  # aware, in `zone`
    kind: str
    expected: datetime | None  # aware, in `zone`; None: a refusal is expected


def load(path: Path = CORPUS) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        phrase, language, zone_name, now, kind, expected = line.split("\t")
        zone = ZoneInfo(zone_name)
        wanted = None if expected == REFUSE else datetime.strptime(expected, "%Y-%m-%d %H:%M").replace(tzinfo=zone)
        rows.append(Row(phrase, language, zone, datetime.fromisoformat(now).replace(tzinfo=zone), kind, wanted))
    return rows


Reader = Callable[[Row], "datetime | None"]  # the instant read, or None when refused


def cronbell_reader(row: Row) -> datetime | None:
    from cronbell.core.errors import ToolError
    from cronbell.core.when import parse_one_shot

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
        for key in ("all", row.language, row.kind, f"{row.language} {row.kind}"):
            scores.setdefault(key, Score()).add(row, outcome)
    return scores, answers


def report(title: str, scores: dict[str, Score]) -> None:
    print(title)
    keys = ["all", "en", "es", *KINDS, *(f"{lang} {kind}" for lang in ("en", "es") for kind in KINDS)]
    for key in keys:
        if key in scores:
            print("  " + scores[key].line(key))


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
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="another table of the same columns")
    args = parser.parse_args(argv)
    rows = load(args.corpus)
    print(f"{len(rows)} phrases from {args.corpus}")
    readers: list[tuple[str, Reader]] = [("cronbell", cronbell_reader)]
    if args.dateparser:
        readers.append(("dateparser", dateparser_reader()))
    for name, read in readers:
        scores, answers = measure(rows, read)
        report(name, scores)
        for row, got, outcome in answers:
            if args.show and outcome != "meant" and args.show in ("all", outcome):
                shown = f"{got:%Y-%m-%d %H:%M}" if got else REFUSE
                wanted = f"{row.expected:%Y-%m-%d %H:%M}" if row.expected else REFUSE
                when = f"{row.now:%a %Y-%m-%d %H:%M}"
                print(f"    {outcome:<8} {row.language} {when} {row.phrase!r}: {shown} != {wanted}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "layers" / "common"))
    sys.exit(main())
