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
import unicodedata
from functools import lru_cache
from pathlib import Path

from ..families import FAMILIES

# Qwen2's pre-tokenizer (tokenizer.json "Split" pattern), as tiktoken writes it
QWEN2_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|"""
                 r"""\s*[\r\n]+|\s+(?!\S)|\s+""")
FIRST_SPECIAL_ID = 151643
# the Qwen families' added tokens (the family registry's), from id FIRST_SPECIAL_ID on
SPECIAL_TOKENS = {name: f.special_tokens for name, f in FAMILIES.items() if f.rule == "qwen"}


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


@lru_cache(maxsize=1)
def qwen_ranks() -> dict[bytes, int] | None:
    """The Qwen2 BPE ranks (token bytes -> rank), or None when the vocabulary is not installed."""
    path = qwen_vocab_path()
    if path is None:
        return None
    decode = binascii.a2b_base64  # what base64.b64decode calls, without its per-call argument checks
    return {decode(token): int(rank) for token, rank in (line.split() for line in path.read_bytes().splitlines()
                                                          if line)}


@lru_cache(maxsize=4)
def qwen_encoding(family: str):
    """A ``tiktoken.Encoding`` of ``family``'s tokenizer (special tokens included), or None when the
    vocabulary or tiktoken is not installed or the family does not use the Qwen vocabulary."""
    if family not in SPECIAL_TOKENS:
        return None
    try:
        import tiktoken
    except ImportError:
        return None
    ranks = qwen_ranks()
    if ranks is None:
        return None
    specials = {tok: FIRST_SPECIAL_ID + i for i, tok in enumerate(SPECIAL_TOKENS[family])}
    return tiktoken.Encoding(f"qwen-{family}", pat_str=QWEN2_PATTERN, mergeable_ranks=ranks,
                             special_tokens=specials)


def count_tokens(encoding, text: str) -> int:
    """Tokens of ``text`` (special tokens in it count as one each), NFC-normalised first as Qwen's tokenizer
    does. A text over 100,000 characters (far beyond any sample's max_length) is counted in pieces, which can
    only split tokens, never join them, and keeps tiktoken's recursion bounded."""
    text = unicodedata.normalize("NFC", text)
    step = 100_000
    return sum(len(encoding.encode(text[i:i + step], allowed_special="all")) for i in range(0, len(text), step))
