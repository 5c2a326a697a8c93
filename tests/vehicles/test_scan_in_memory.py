"""The privacy page's promise, proven: a ruhsat photo sent to POST /api/vin/scan by a signed-in dealer is read in
memory. While the request runs, an audit hook fails the test on any file opened for writing (anywhere, by anyone in
this process: the upload's spooling, the reader, a library) and on any program started.

Audit hooks cannot be removed, so the hook is installed once and acts only while `_WATCH` is set, around the request.
It sees what Python does; what the C libraries do (libtesseract, Leptonica) was checked once with strace
(docs/decisions.md): they only read their own model file. And gunicorn's threads read side by side, each with its own
Tesseract API object.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import threading

import pytest
from PIL import Image

from app.sources.sandbox.catalog import VIN_CLIO
from app.vehicles.scan import reader, text_engine
from app.vehicles.scan.candidates import candidates
from tests.support.scan_images import require_text_engine, ruhsat_image
from tests.vehicles.test_scan_api import scan

MOTOR_NO = "K9KA764D012345678"
SIZE = (4000, 3000)
THREADS = 4  # gunicorn's threads per worker (Dockerfile)
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
STARTS_A_PROGRAM = {
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
    "pty.spawn",
}

_WATCH = threading.Event()
_SEEN: list[tuple[str, str, str]] = []
_INSTALLED: list[bool] = []


def _writes(mode: object, flags: object) -> bool:
    by_mode = isinstance(mode, str) and any(letter in mode for letter in "wax+")
    return by_mode or (isinstance(flags, int) and flags & WRITE_FLAGS != 0)


def _hook(event: str, args: tuple) -> None:
    if not _WATCH.is_set():
        return
    if event == "open" and _writes(*args[1:3]):
        _SEEN.append((event, repr(args[0]), threading.current_thread().name))
    elif event in STARTS_A_PROGRAM:
        _SEEN.append((event, repr(args)[:200], threading.current_thread().name))


@pytest.fixture
def watch():
    """`with watch():` runs its body with the hook acting; what it saw is the list it yields."""
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED.append(True)

    class Watching:
        def __enter__(self):
            _SEEN.clear()
            _WATCH.set()
            return _SEEN

        def __exit__(self, *_exc):
            _WATCH.clear()

    return Watching


def _twelve_mp_jpeg(png: bytes) -> bytes:
    """The rendered page as a phone's 12 MP JPEG, with a sensor's noise: a few MB, over the 500 KB past which Werkzeug
    spools an upload to disk."""
    page = Image.open(io.BytesIO(png)).convert("L").resize(SIZE)
    noisy = Image.blend(page, Image.effect_noise(SIZE, 40), 0.1)
    photo = io.BytesIO()
    noisy.convert("RGB").save(photo, "JPEG", quality=90)
    return photo.getvalue()


def test_the_hook_sees_a_file_written_and_a_program_started(watch):
    """The hook bites: what the old reader did (a temp file, a tesseract process) is caught."""
    with watch() as seen, tempfile.TemporaryFile() as spooled:
        spooled.write(b"x")
        subprocess.run([sys.executable, "-c", "pass"], check=True)

    assert {event for event, *_ in seen} == {"open", "subprocess.Popen"}


def test_a_ruhsat_photo_is_read_without_a_file_written_or_a_program_started(dealer, client, watch):
    require_text_engine()
    photo = _twelve_mp_jpeg(ruhsat_image(VIN_CLIO, MOTOR_NO, "PNG"))
    assert scan(client, photo, "ruhsat.jpg").status_code == 200  # a warm server: the engine's modules loaded

    with watch() as seen:
        response = scan(client, photo, "ruhsat.jpg")

    assert seen == []
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert (answer["candidates"][0]["vin"], answer["candidates"][0]["source"]) == (VIN_CLIO, "ruhsat")
    assert answer["textReading"] is True
    assert reader.MAX_BYTES > len(photo) > 500 * 1024


def test_threads_read_side_by_side_each_with_its_own_engine():
    """gunicorn's threads: a Tesseract API object serves one thread, so each reading thread has its own and every
    thread reads the ruhsat right while the others read too."""
    require_text_engine()
    photo = ruhsat_image(VIN_CLIO, MOTOR_NO, "PNG")
    barrier = threading.Barrier(THREADS)
    firsts: list[str] = []
    engines: list[object] = []  # the objects themselves: an id alone may be reused once a thread's engine is freed

    def read_one() -> None:
        barrier.wait()
        reading = reader.read(photo, lambda _reads: False)
        engines.append(text_engine._threads.api)  # the object this thread read with
        firsts.append(candidates(reading.reads)[0].vin)

    threads = [threading.Thread(target=read_one) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert firsts == [VIN_CLIO] * THREADS
    assert len({id(engine) for engine in engines}) == THREADS
