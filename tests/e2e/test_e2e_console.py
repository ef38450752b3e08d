"""The sandbox console in a real headless browser (Debian's Chromium through Selenium): it shows the rooms,
their schedules and what fired and was posted, and its buttons move the virtual clock.

A screenshot of the console after a few moves is saved to test-artifacts/sandbox-console.png."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.wait import WebDriverWait

from sandbox.demo import SandboxProcess
from tests.support.html import parse_html
from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "Chromium and its driver are installed by `make browser` (make test runs it)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1360,1250"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def press(browser: WebDriver, button_id: str) -> None:
    """Click a console button and wait for the page that the move's redirect loads."""
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, button_id).click()
    WebDriverWait(browser, 60).until(lambda _: _left(page))
    WebDriverWait(browser, 60).until(lambda b: b.find_elements(By.ID, "note"))


def _left(page: WebElement) -> bool:
    """Whether the browser has left `page`: its element is stale, or, caught mid-navigation,
    detached from the document (Chromium's driver then answers with an inspector error)."""
    try:
        page.is_enabled()
    except WebDriverException:
        return True
    return False


def texts(browser: WebDriver, selector: str) -> list[str]:
    return [element.text for element in browser.find_elements(By.CSS_SELECTOR, selector)]


def test_console_shows_rooms_schedules_fires_and_messages_and_moves_the_clock(
    start_sandbox: StartSandbox, browser: WebDriver
) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T07:40:00Z", "--timezone", "Europe/Madrid")
    team = Bot(sandbox, "!team:localhost")
    standup = team.create(message="Stand-up in the small room", cron="0 9 * * 1-5")
    call = team.create(message="Call the printer people", time="in 50 minutes")
    ana = Bot(sandbox, "!ana-dm:localhost")
    weekly = ana.create(message="Water the plants", cron="every monday at 18:00")
    brief = ana.call("cron_create", name="brief", prompt="Summarize the news", cron_expr="0 8 * * *")
    assert brief["ok"], brief

    browser.get(f"{sandbox.url}/_sandbox/ui")
    assert browser.title == "cronbell sandbox"
    assert browser.find_element(By.ID, "now").get_attribute("data-now") == "2030-01-07T07:40:00Z"
    rooms = [
        element.get_attribute("data-room") or "" for element in browser.find_elements(By.CSS_SELECTOR, "section.room")
    ]
    assert rooms == sorted(rooms) and {"!ana-dm:localhost", "!team:localhost"} <= set(rooms)
    rows = {row.get_attribute("data-id"): row.text for row in browser.find_elements(By.CSS_SELECTOR, "tr.schedule")}
    assert set(rows) == {standup, call, weekly, brief["result"]["id"]}
    assert "2030-01-07 09:00" in rows[standup] and "active" in rows[standup]  # next fire, in Madrid time
    assert "2030-01-07 09:30" in rows[call]
    assert "agent" in rows[brief["result"]["id"]]
    assert "Nothing has fired yet." in browser.find_element(By.ID, "fires").text

    press(browser, "move-next")  # at the latest to the stand-up, 09:00 in Madrid
    now = browser.find_element(By.ID, "now").get_attribute("data-now") or ""
    assert "2030-01-07T07:40:00Z" < now <= "2030-01-07T08:00:00Z"
    assert browser.find_element(By.ID, "note").text == f"Clock moved to {now}: 1 fired"
    press(browser, "move-hour")
    press(browser, "move-day")
    note = browser.find_element(By.ID, "note").text
    assert note.startswith("Clock moved to ") and "fired" in note

    fires = texts(browser, "tr.fire")
    assert any(call in row for row in fires) and any(standup in row for row in fires)
    assert any(call in row and "delivered" in row for row in fires)  # each run with its outcome
    messages = "\n".join(texts(browser, "tr.message"))
    assert "Call the printer people" in messages and "Stand-up in the small room" in messages
    rows = {row.get_attribute("data-id"): row.text for row in browser.find_elements(By.CSS_SELECTOR, "tr.schedule")}
    assert "fired" in rows[call]

    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "sandbox-console.png"))
    assert (ARTIFACTS / "sandbox-console.png").stat().st_size > 10_000


def _page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return str(answer.read().decode("utf-8"))


def _panel(page: str, element_id: str) -> str:
    start = page.index(f'id="{element_id}"')
    return parse_html(page[page.index(">", start) + 1 : page.index("</div>", start)]).text


def _post(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_console_filters_a_room_shows_runs_history_and_events_and_refuses_other_pages(
    start_sandbox: StartSandbox,
) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T07:40:00Z", "--timezone", "Europe/Madrid")
    team = Bot(sandbox, "!team:localhost")
    call = team.create(message="Call the printer people", time="in 10 minutes")
    Bot(sandbox, "!ana-dm:localhost").create(message="Water the plants", time="in 20 minutes")
    assert len(team.advance(3600)) == 2

    page = _page(f"{sandbox.url}/_sandbox/ui?" + urllib.parse.urlencode({"room": "!team:localhost"}))
    rooms = [attrs.get("data-room") for tag, attrs in parse_html(page).tags if tag == "section"]
    assert rooms == ["!team:localhost"]
    runs = _panel(page, "fires")
    assert "scheduled (Europe/Madrid)" in runs and "delivered" in runs
    messages = _panel(page, "messages")
    assert "posted (Europe/Madrid)" in messages
    assert "Call the printer people" in messages and "Water the plants" not in messages
    assert "!team:localhost" in _panel(page, "events")
    assert "The dead-letter queues are empty." in _panel(page, "dead-letters")

    history = _page(
        f"{sandbox.url}/_sandbox/ui?" + urllib.parse.urlencode({"room": "!team:localhost", "schedule": call})
    )
    assert "delivered" in _panel(history, "history")

    # a page elsewhere can neither move the clock with the console's form nor create a reminder
    before = sandbox.get("/_sandbox/clock")["now"]
    form = {"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}
    assert _post(f"{sandbox.url}/_sandbox/ui/clock", b"move=week", form) == 403
    assert sandbox.get("/_sandbox/clock")["now"] == before
    event = {"tool": "create_reminder", "arguments": {"message": "x", "time": "in 1 hour"}, "context": {}}
    invoke = f"{sandbox.url}/2015-03-31/functions/ToolsFunction/invocations"
    assert _post(invoke, json.dumps(event).encode(), {"Origin": "http://evil.example"}) == 403
    listed = team.call("list_reminders", include_inactive=True)["result"]["schedules"]
    assert [s["id"] for s in listed] == [call]


def _rows(page: str, css_class: str, key: str) -> dict[str, str]:
    """The visible text of each row of this class, by the value of its `key` attribute."""
    out = {}
    for chunk in page.split(f'<tr class="{css_class}" {key}="')[1:]:
        value, rest = chunk.split('"', 1)
        out[value] = " ".join(parse_html(rest[rest.index(">") + 1 : rest.index("</tr>")]).text.split())
    return out


def _history(sandbox: SandboxProcess, room: str, schedule_id: str) -> list[str]:
    page = _page(f"{sandbox.url}/_sandbox/ui?" + urllib.parse.urlencode({"room": room, "schedule": schedule_id}))
    runs = page.split('<tr class="run"')[1:]
    return [" ".join(parse_html(r[r.index(">") + 1 : r.index("</tr>")]).text.split()) for r in runs]


def test_console_shows_repeats_quiet_hours_and_business_days(start_sandbox: StartSandbox) -> None:
    """A room with reminders repeated until done (one acknowledged, one escalated), a user whose quiet hours
    hold an occurrence, and a business-day schedule moved off New Year's Day, as the console shows them."""
    room, bob = "!flat:localhost", "@bob:localhost"
    sandbox = start_sandbox("--start", "2029-12-31T07:40:00Z", "--timezone", "Europe/Madrid")  # Monday, 08:40
    ana, bobs = Bot(sandbox, room), Bot(sandbox, room, bob)
    pills = ana.create(message="Take the pills", time="in 20 minutes", repeat_every=10, repeat_times=3)
    oven = ana.create(message="Check the oven", time="in 25 minutes", repeat_every=5, repeat_times=1, escalate_to=bob)
    cat = bobs.create(message="Feed the cat", cron="0 10 * * *")
    assert bobs.call("set_quiet_hours", start="09:30", end="11:00", days=["mon", "tue", "wed"])["ok"]
    rent = ana.create(
        message="Pay the rent", cron="0 9 1 * *", skip_holidays="ES", business_days=True, on_holiday="after"
    )

    sandbox.post("/_sandbox/clock", {"set": "2029-12-31T08:15:00Z"})  # 09:15: the pills were posted again once
    assert ana.call("done_reminder", id=pills)["ok"]
    sandbox.post("/_sandbox/clock", {"set": "2029-12-31T09:30:00Z"})  # 10:30: the cat's 10:00 is held

    page = _page(f"{sandbox.url}/_sandbox/ui?" + urllib.parse.urlencode({"room": room}))
    rows = _rows(page, "schedule", "data-id")
    assert "repeat_every 10 min" in rows[pills] and "repeat_times 3" in rows[pills]
    assert "repeat_every 5 min" in rows[oven] and f"escalate_to {bob}" in rows[oven]
    assert "skip_holidays ES" in rows[rent] and "business_days" in rows[rent] and "on_holiday after" in rows[rent]
    assert "2029-12-31 10:00 held by quiet hours until 2029-12-31 11:00" in rows[cat]  # held now
    assert rows[cat].count("held by quiet hours") == 1  # said once: held_until names that release too
    quiet = _rows(page, "quiet-hours", "data-user")
    assert list(quiet) == [bob]
    assert "09:30–11:00" in quiet[bob] and "Europe/Madrid" in quiet[bob] and "mon, tue, wed" in quiet[bob]
    assert "2029-12-31 09:30 – 2029-12-31 11:00" in quiet[bob]  # the period under way
    assert f"{cat} due 2029-12-31 10:00 until 2029-12-31 11:00" in quiet[bob]
    [acknowledged] = _history(sandbox, room, pills)
    assert "1 repeat" in acknowledged and "acknowledged 2029-12-31 09:15" in acknowledged
    assert "escalated" not in acknowledged
    [escalated] = _history(sandbox, room, oven)
    assert "1 repeat" in escalated and "escalated" in escalated and "acknowledged" not in escalated

    sandbox.post("/_sandbox/clock", {"set": "2030-01-02T09:00:00Z"})  # Wednesday 10:00
    [moved] = _history(sandbox, room, rent)
    assert moved.startswith("2030-01-02 09:00") and "moved from 2030-01-01 09:00" in moved
    released = _history(sandbox, room, cat)
    assert released and all("delivered quiet_hours" in run for run in released), released
    page = _page(f"{sandbox.url}/_sandbox/ui?" + urllib.parse.urlencode({"room": room}))
    assert "moved from 2030-01-01 09:00" in _rows(page, "schedule", "data-id")[rent]  # its last run
