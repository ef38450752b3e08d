"""How the grammar reads phrases written outside the project (tests/unit/outside_phrases.tsv): each is sent
through the tools, as a bot sends it (`create_reminder` with `time` or `cron`, in its locale, at the
table's reference moment), and its answer compared with what its writer worked out: the instant, or a
recurrence's first three fires, or a refusal. Each answer is meant, refused (asked again: safe, but a
miss) or misread (the worst case).

    python -m bench.phrases_outside [--show]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "unit" / "outside_phrases.tsv"
REFUSE = "refuse"
REFERENCE_ZONE = ZoneInfo("Europe/Madrid")  # the zone of the table's reference moment


@dataclass(frozen=True)
class Answer:
    locale: str
    kind: str
    phrase: str
    expected: str
    got: str

    @property
    def outcome(self) -> str:
        if self.got == self.expected:
            return "meant"
        return "refused" if self.got == REFUSE else "misread"


def _in_reference_zone(utc: str) -> str:
    """An instant as the table writes it: local time in the reference zone, also for a schedule that runs
    in a zone its phrase names ('every friday at 5pm new york time')."""
    instant = datetime.fromisoformat(utc.replace("Z", "+00:00"))
    return instant.astimezone(REFERENCE_ZONE).strftime("%Y-%m-%d %H:%M")


def read(path: Path = TABLE) -> list[Answer]:
    """Every phrase of the table, as the tools answer it."""
    sys.path[:0] = [str(ROOT / "layers" / "common"), str(ROOT)]
    from tests.support.memory_stack import MemoryStack

    answers = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        locale, kind, phrase, expected = line.split("\t")
        argument = "time" if kind == "time" else "cron"
        answer = MemoryStack().call("create_reminder", {"message": "m", argument: phrase}, locale=locale)
        got = REFUSE
        if answer["ok"]:
            result = answer["result"]
            fires = [result["next_fire"]] if kind == "time" else result["next_fires"][:3]
            got = ";".join(_in_reference_zone(fire["utc"]) for fire in fires)
        answers.append(Answer(locale, kind, phrase, expected, got))
    return answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", action="store_true", help="list the phrases not read as meant")
    args = parser.parse_args(argv)
    answers = read()
    print(f"written outside: {len(answers)} phrases")
    for locale in ("en", "es"):
        for kind in ("time", "cron"):
            some = [a for a in answers if (a.locale[:2], a.kind) == (locale, kind)]  # en-GB is en
            counts = Counter(a.outcome for a in some)
            print(
                f"  {locale} {'one-shot' if kind == 'time' else 'recurring':<10} {counts['meant']:>3}/{len(some):<3}"
                f" {100 * counts['meant'] / max(1, len(some)):5.1f}% as meant  {counts['refused']:>2} refused"
                f"  {counts['misread']:>2} misread"
            )
    for a in answers:
        if args.show and a.outcome != "meant":
            print(f"    {a.outcome:<8} {a.locale} {a.phrase!r}: {a.got} != {a.expected}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
