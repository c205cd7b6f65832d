"""The OCR tests need the ``ocr`` extra (rapidocr-onnxruntime, installed by ``make test``). Without it they skip,
except with ``SFTDATA_REQUIRE_OCR=1`` (set by CI), where a missing extra is a failure."""
from __future__ import annotations

import os

import pytest

from sftdata.ocr import ocr_available


@pytest.fixture(autouse=True)
def _needs_ocr():
    if not ocr_available():
        if os.environ.get("SFTDATA_REQUIRE_OCR") == "1":
            pytest.fail("SFTDATA_REQUIRE_OCR=1 but the ocr extra is not installed (pip install '.[ocr]')")
        pytest.skip("the ocr extra is not installed (pip install '.[ocr]')")
