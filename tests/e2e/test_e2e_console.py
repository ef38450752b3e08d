"""The sandbox console in a real headless browser (Debian's Chromium through Selenium): it shows the rooms,
their schedules and what fired and was posted, and its buttons move the virtual clock.

A screenshot of the console after a few moves is saved to test-artifacts/sandbox-console.png."""

from __future__ import annotations

import shutil
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
    messages = "\n".join(texts(browser, "tr.message"))
    assert "Call the printer people" in messages and "Stand-up in the small room" in messages
    rows = {row.get_attribute("data-id"): row.text for row in browser.find_elements(By.CSS_SELECTOR, "tr.schedule")}
    assert "fired" in rows[call]

    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "sandbox-console.png"))
    assert (ARTIFACTS / "sandbox-console.png").stat().st_size > 10_000
