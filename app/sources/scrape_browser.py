"""The scrape source's fallback for pages plain HTTP cannot read (a JavaScript-only shell, a "checking your browser"
challenge): headless Chromium through Selenium, started on first need and shared by the adapter's threads."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from app.sources.scrape_types import ScrapeUnavailableError

CHROMIUM_ARGUMENTS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
)  # fmt: skip


class HeadlessBrowser:
    def __init__(self, chromium_path: str, chromedriver_path: str, timeout_seconds: float) -> None:
        self.chromium_path = chromium_path
        self.chromedriver_path = chromedriver_path
        self.timeout_seconds = timeout_seconds
        self._driver: Any = None  # a selenium WebDriver, started on first need
        self._lock = threading.Lock()

    def render(self, url: str, kind: str) -> str:
        """The HTML of `url` once its `<main data-page=kind>` is there; any failure is ScrapeUnavailableError."""
        from selenium.common.exceptions import TimeoutException, WebDriverException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        with self._lock:
            try:
                driver = self._driver or self._start()
                driver.set_page_load_timeout(self.timeout_seconds)
                driver.get(url)
                WebDriverWait(driver, self.timeout_seconds, poll_frequency=0.05).until(
                    lambda driver: driver.find_elements(By.CSS_SELECTOR, f'main[data-page="{kind}"]')
                )
                return driver.page_source
            except TimeoutException as error:
                raise ScrapeUnavailableError(f"browser: no {kind} page within the timeout") from error
            except WebDriverException as error:
                raise ScrapeUnavailableError(f"browser: {type(error).__name__}: {error.msg}"[:300]) from error

    def close(self) -> None:
        with self._lock:
            if self._driver is not None:
                try:
                    self._driver.quit()
                finally:
                    self._driver = None

    def _start(self) -> Any:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        if not Path(self.chromium_path).exists():
            raise ScrapeUnavailableError(f"browser fallback: no Chromium at {self.chromium_path}")
        options = webdriver.ChromeOptions()
        options.binary_location = self.chromium_path
        for argument in CHROMIUM_ARGUMENTS:
            options.add_argument(argument)
        self._driver = webdriver.Chrome(service=Service(self.chromedriver_path), options=options)
        return self._driver
