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
