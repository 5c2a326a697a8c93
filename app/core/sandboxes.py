"""Local stand-ins for outside services: what `make run` (and a CLI command that needs one) starts on loopback when
the real service has no settings, so the product works, and reaches nothing beyond this machine, with none.

Core knows none of them: each domain registers its own (`register`) in a module listed in app.LOCAL_SERVICES, and
`load` imports those modules. A stand-in's `start(base_url)` returns it running, with the settings that point the
application at it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

log = logging.getLogger(__name__)


class Running(Protocol):
    def stop(self) -> None: ...


@dataclass(frozen=True)
class LocalService:
    """A stand-in for `describes`, started when `setting` names no real service."""

    name: str
    setting: str
    describes: str
    start: Callable[[str], tuple[Running, dict[str, str]]]
    group: str = ""  # the domain whose commands need it ("sources", "billing")
    # Values of `setting` that still mean "not configured" (a built-in public default, say).
    unset: tuple[str, ...] = ("",)


_registry: dict[str, LocalService] = {}


def register(service: LocalService) -> LocalService:
    _registry[service.name] = service
    return service


def load(modules: Iterable[str]) -> list[LocalService]:
    """Import each domain's registering module; return every registered stand-in, in registration order."""
    for module in modules:
        import_module(module)
    return list(_registry.values())


def configured(service: LocalService, environ: Mapping[str, str], config: Mapping[str, Any] | None = None) -> bool:
    """Whether the real service is set: in the environment, or (for an app already built) in its config."""
    if environ.get(service.setting):
        return True
    return config is not None and (config.get(service.setting) or "") not in service.unset


def start_missing(
    services: Iterable[LocalService],
    environ: Mapping[str, str],
    base_url: str,
    config: Mapping[str, Any] | None = None,
) -> list[tuple[LocalService, Running, dict[str, str]]]:
    """Start the stand-in of every service that is not configured; each with the settings that point at it."""
    started = []
    for service in services:
        if configured(service, environ, config):
            continue
        running, settings = service.start(base_url)
        log.info("%s is the %s stand-in on loopback", service.describes, service.name)
        started.append((service, running, settings))
    return started


def stop_all(started: Iterable[tuple[LocalService, Running, dict[str, str]]]) -> None:
    for _service, running, _settings in started:
        running.stop()


@contextmanager
def standing_in(group: str, config: MutableMapping[str, Any], environ: Mapping[str, str]) -> Iterator[list[str]]:
    """For a CLI command: while it runs, point `config` at a stand-in for each of `group`'s unset services; yields
    their names."""
    services = [service for service in _registry.values() if service.group == group]
    started = start_missing(services, environ, config.get("BASE_URL", ""), config)
    changed = {name for _service, _running, settings in started for name in settings}
    previous = {name: config[name] for name in changed if name in config}
    try:
        for _service, _running, settings in started:
            config.update(settings)
        yield [service.name for service, _running, _settings in started]
    finally:
        for name in changed - previous.keys():
            config.pop(name, None)
        config.update(previous)
        stop_all(started)
