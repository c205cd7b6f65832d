"""``--tokenizer``: a Hugging Face ``tokenizers.Tokenizer`` read from a local ``tokenizer.json``."""
from __future__ import annotations

import json
import os
from pathlib import Path


def load_tokenizer(path: str | os.PathLike):
    """A ``tokenizers.Tokenizer`` from ``path`` (a model directory holding tokenizer.json, or the file).

    What is wrong with the file is said first, whether or not the ``tokenizers`` package is installed; a missing
    package is its own line.
    """
    from ..errors import FatalError

    p = Path(path)
    file = p / "tokenizer.json" if p.is_dir() else p
    if not file.is_file():
        raise FatalError(f"--tokenizer {path}: no such file (give a tokenizer.json or the folder holding one)")
    try:
        text = file.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise FatalError(f"--tokenizer {file} is not a tokenizer.json: {str(exc)[:120]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise FatalError(f"--tokenizer {file} is not a tokenizer.json: it has no tokenizer model")
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise FatalError("--tokenizer needs the 'tokenizers' package: pip install tokenizers") from None
    try:
        return Tokenizer.from_str(text)
    except Exception as exc:  # the Rust library raises a bare Exception for a file it cannot read
        raise FatalError(f"--tokenizer {file} is not a tokenizer.json Hugging Face tokenizers can read: "
                         f"{str(exc)[:120]}") from None
