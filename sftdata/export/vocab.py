"""The official Qwen2 vocabulary, offline: exact token counts for Qwen2/2.5/3 and their VL models.

The byte-level BPE ranks (``qwen.tiktoken``, 151,643 entries) ship inside the ``dashscope`` package (Alibaba's
SDK for its model service); Qwen2, Qwen2.5(-VL) and Qwen3(-VL) share them. ``tiktoken`` runs the BPE with
Qwen2's pre-tokenizer pattern, after NFC normalisation as the Hugging Face tokenizer does, and matches the
special tokens (``<|im_start|>``, ``<|vision_start|>``, ``<tool_call>``, ...) from id 151643 on, in the
order of the models' ``tokenizer_config.json``. dashscope itself is never imported: only its data file is read.

>>> enc = qwen_encoding("qwen2.5-vl")
>>> enc is None or len(enc.encode("<|im_start|>user\\n打开设置<|im_end|>", allowed_special="all")) == 6
True
"""
from __future__ import annotations

import binascii
import importlib.util
import marshal
import os
import re
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path

from ..errors import FatalError
from ..families import FAMILIES
from ..io import write_bytes_atomic

# Qwen2's pre-tokenizer (tokenizer.json "Split" pattern), as tiktoken writes it
QWEN2_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|"""
                 r"""\s*[\r\n]+|\s+(?!\S)|\s+""")
# the added tokens of the families whose tokenizer has the Qwen vocabulary (the family registry's), each from its
# family's first special id on: the vocabulary's ranks come first, FIRST_SPECIAL_ID of them
SPECIAL_TOKENS = {name: f.special_tokens for name, f in FAMILIES.items() if f.vocabulary == "qwen"}
FIRST_SPECIAL_ID = next(f.first_special_id for f in FAMILIES.values() if f.vocabulary == "qwen")


def qwen_vocab_path() -> Path | None:
    """Where ``qwen.tiktoken`` lies (inside the installed ``dashscope`` package), or None."""
    try:
        spec = importlib.util.find_spec("dashscope")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "resources" / "qwen.tiktoken"
        if path.is_file():
            return path
    return None


def ranks_cache(vocab: Path) -> Path:
    """Where the decoded ranks of ``vocab`` are kept between processes: the user's cache folder
    (``$XDG_CACHE_HOME``, else ``~/.cache``), named by the file's size and time and the Python version."""
    stat = vocab.stat()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sftdata" / (f"qwen-ranks-{stat.st_size}-{stat.st_mtime_ns}-"
                                     f"py{sys.version_info[0]}{sys.version_info[1]}.marshal")


@lru_cache(maxsize=1)
def qwen_ranks() -> dict[bytes, int] | None:
    """The Qwen2 BPE ranks (token bytes -> rank), or None when the vocabulary is not installed.

    Decoding the 151,643 base64 lines takes about three times as long as reading them back with ``marshal``,
    so the first process keeps them in :func:`ranks_cache` (a missing, unwritable or damaged copy only means
    decoding them again)."""
    path = qwen_vocab_path()
    if path is None:
        return None
    cache = ranks_cache(path)
    try:
        ranks = marshal.loads(cache.read_bytes())
        if isinstance(ranks, dict) and len(ranks) == FIRST_SPECIAL_ID:
            return ranks
    except (OSError, ValueError, EOFError, TypeError):
        pass
    decode = binascii.a2b_base64  # what base64.b64decode calls, without its per-call argument checks
    ranks = {decode(token): int(rank) for token, rank in (line.split() for line in path.read_bytes().splitlines()
                                                           if line)}
    try:
        write_bytes_atomic(cache, marshal.dumps(ranks), fsync=False)
    except (OSError, FatalError):
        pass  # no cache folder to write to: decode again next time
    return ranks


def vocab_available(family: str) -> bool:
    """Whether :func:`qwen_encoding` can serve ``family``, without loading anything (tiktoken found, the vocabulary
    file installed)."""
    return family in SPECIAL_TOKENS and importlib.util.find_spec("tiktoken") is not None \
        and qwen_vocab_path() is not None


@lru_cache(maxsize=1)
def _shared_encoding():
    """One ``tiktoken.Encoding`` of the Qwen ranks with every Qwen family's special tokens: the BPE is built once
    per process (about a fifth of a second), whichever families a process counts for."""
    try:
        import tiktoken
    except ImportError:
        return None
    ranks = qwen_ranks()
    if ranks is None:
        return None
    specials: dict[str, int] = {}
    for name in SPECIAL_TOKENS:  # the families' lists extend one another: a token has the same id in each
        family = FAMILIES[name]
        specials.update((tok, family.token_id(tok)) for tok in family.special_tokens)
    return tiktoken.Encoding("qwen", pat_str=QWEN2_PATTERN, mergeable_ranks=ranks, special_tokens=specials)


class FamilyEncoding:
    """The shared Qwen encoding seen through one family's special tokens: ``encode`` tokenizes as a
    ``tiktoken.Encoding`` with only that family's special tokens does (another family's, such as Qwen3's
    ``<think>`` for Qwen2.5-VL, are plain text to it)."""

    def __init__(self, shared, family: str) -> None:
        self.shared, self.name = shared, f"qwen-{family}"
        self.special_tokens_set = set(SPECIAL_TOKENS[family])
        # no special token is a prefix of another, so the leftmost match is tiktoken's
        self._specials = re.compile("(" + "|".join(map(re.escape, SPECIAL_TOKENS[family])) + ")")

    def count(self, text: str) -> int:
        """``len(self.encode(text, allowed_special="all"))``, the text between special tokens counted once per
        process (:func:`_ordinary_tokens`): tiktoken encodes those stretches one by one, so the sum is the same,
        and every sample of a format repeats its system prompt."""
        pieces = self._specials.split(text)  # ordinary, special, ordinary, ..., ordinary
        return len(pieces) // 2 + sum(_ordinary_tokens(self.shared, piece) for piece in pieces[::2] if piece)

    def encode(self, text: str, *, allowed_special=frozenset(), disallowed_special="all") -> list[int]:
        allowed = self.special_tokens_set if allowed_special == "all" else set(allowed_special) & self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - allowed
        return self.shared.encode(text, allowed_special=allowed, disallowed_special=disallowed_special)


@lru_cache(maxsize=4)
def qwen_encoding(family: str) -> FamilyEncoding | None:
    """The encoding of ``family``'s tokenizer (special tokens included), or None when the vocabulary or tiktoken
    is not installed or the family does not use the Qwen vocabulary. Loaded on first use, once per process."""
    if family not in SPECIAL_TOKENS:
        return None
    shared = _shared_encoding()
    return FamilyEncoding(shared, family) if shared is not None else None


@lru_cache(maxsize=256)
def _ordinary_tokens(shared, text: str) -> int:
    """Tokens of a stretch of text with no special token in it (the last 256 remembered)."""
    return len(shared.encode_ordinary(text))


def count_tokens(encoding, text: str) -> int:
    """Tokens of ``text`` (special tokens in it count as one each), NFC-normalised first as Qwen's tokenizer
    does. A text over 100,000 characters (far beyond any sample's max_length) is counted in pieces, which can
    only split tokens, never join them, and keeps tiktoken's recursion bounded.

    >>> enc = qwen_encoding("qwen2.5-vl")
    >>> enc is None or count_tokens(enc, "<|im_start|>user\\n打开设置<|im_end|>") == 6
    True
    """
    text = unicodedata.normalize("NFC", text)
    step = 100_000
    if len(text) <= step and isinstance(encoding, FamilyEncoding):
        return encoding.count(text)
    return sum(len(encoding.encode(text[i:i + step], allowed_special="all")) for i in range(0, len(text), step))
