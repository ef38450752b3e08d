"""What a function's cold start loads: the code its common first call needs, not the code of tools or
schedules that call may never touch (those are imported by the first call that uses them)."""

from __future__ import annotations

from cronbell.usecases import tools
from tests.support.python_process import run_python

# The recurring grammar: a one-shot never reads it.
GRAMMAR = (
    "cronbell.core.language.recurring",
    "cronbell.core.language.cron_phrases",
    "cronbell.core.language.business_phrases",
)
# Imported by the first call that needs them, never while the tools function initialises.
ON_FIRST_USE = (
    "cronbell.usecases.manage",  # listing, deleting, history, run now
    "cronbell.usecases.change",  # update, pause, resume, skip
    "cronbell.usecases.snooze",
    "cronbell.usecases.acknowledge",  # done
    "cronbell.usecases.fire_writes",
    "cronbell.core.domain.firing",  # a fire's decision: the delivery ledger's slot keys live apart
    "cronbell.core.domain.projection",  # the projector's: the store and the gateway name its types only
    "cronbell.adapters.chat",  # the tools never post
    "fractions",  # '1.5 hours' is read with integers
    *GRAMMAR,
)


def test_a_use_case_imported_on_first_call_is_there() -> None:
    deferred = [tool for tool in tools.TOOLS if isinstance(tool.use_case, tools._OnFirstCall)]
    assert deferred
    for tool in deferred:
        assert isinstance(tool.use_case, tools._OnFirstCall)
        assert callable(getattr(tool.use_case.load(), tool.use_case.name)), tool.name


def test_the_tools_function_initialises_without_what_a_one_shot_does_not_use() -> None:
    code = (
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('app', 'functions/tools/app.py')\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        f"print(sorted(m for m in sys.modules if m in {ON_FIRST_USE!r}))\n"
    )
    assert run_python(code).strip() == "[]"


def test_creating_a_one_shot_plans_without_the_recurring_grammar() -> None:
    code = (
        "import sys\n"
        "from datetime import UTC, datetime\n"
        "from zoneinfo import ZoneInfo\n"
        "from cronbell.usecases.planning import plan_once\n"
        "plan_once('in 30 minutes', ZoneInfo('Europe/Madrid'), datetime(2026, 11, 30, 8, 0, tzinfo=UTC), 'en')\n"
        "plan_once('tomorrow at 9', ZoneInfo('Europe/Madrid'), datetime(2026, 11, 30, 8, 0, tzinfo=UTC), 'en')\n"
        f"print(sorted(m for m in sys.modules if m in {GRAMMAR!r}))\n"
    )
    assert run_python(code).strip() == "[]"
