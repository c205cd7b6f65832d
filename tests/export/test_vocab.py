"""The Qwen vocabulary: one BPE per process, each family's special tokens as its own tiktoken encoding has them,
and nothing loaded until a length is measured."""
from __future__ import annotations

import subprocess
import sys
import unicodedata

import pytest

from sftdata.export import vocab

TEXTS = ["<|im_start|>user\n打开设置<think>先想想</think><|im_end|>",
         "<tool_call>\n{\"name\": \"click\"}\n</tool_call><|vision_start|><|image_pad|><|vision_end|>", "plain text"]

pytestmark = pytest.mark.skipif(vocab.qwen_ranks() is None, reason="the Qwen vocabulary (dashscope) is not installed")


@pytest.mark.parametrize("family", sorted(vocab.SPECIAL_TOKENS))
def test_each_family_tokenizes_as_its_own_encoding(family):
    import tiktoken

    own = tiktoken.Encoding("own", pat_str=vocab.QWEN2_PATTERN, mergeable_ranks=vocab.qwen_ranks(),
                            special_tokens={t: vocab.FIRST_SPECIAL_ID + i
                                            for i, t in enumerate(vocab.SPECIAL_TOKENS[family])})
    shared = vocab.qwen_encoding(family)
    for text in TEXTS:
        assert shared.encode(text, allowed_special="all") == own.encode(text, allowed_special="all")
        for enc in (own, shared):  # a special token not allowed is refused the same way
            if any(tok in text for tok in vocab.SPECIAL_TOKENS[family]):
                with pytest.raises(ValueError):
                    enc.encode(text)


def test_the_bpe_is_built_once_for_every_family():
    encodings = {vocab.qwen_encoding(family).shared for family in vocab.SPECIAL_TOKENS}
    assert len(encodings) == 1


def test_a_length_model_loads_the_vocabulary_only_to_measure():
    code = ("import sys; from sftdata.export.lengths import LengthModel; m = LengthModel('qwen2.5-vl'); "
            "assert m.exact and 'tiktoken' not in sys.modules; m.encoding; assert 'tiktoken' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("family", sorted(vocab.SPECIAL_TOKENS))
def test_counting_stretch_by_stretch_is_counting_the_whole_text(family):
    """count_tokens sums the stretches between special tokens (remembering repeated ones): the same number as
    encoding the whole text, on the texts above and on generated mixes."""
    import random

    enc = vocab.qwen_encoding(family)
    rng = random.Random(family)
    pieces = list(vocab.SPECIAL_TOKENS["qwen3-vl"]) + ["打开设置", " hello", "\n\n", "  ", "é", "e\u0301", "≯", "\u0338",
                                                      "<|im_star", "t|>", "1234567", "!!", "<", ">"]
    texts = TEXTS + ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))) for _ in range(300)]
    for text in texts:
        whole = len(enc.encode(unicodedata.normalize("NFC", text), allowed_special="all"))
        assert vocab.count_tokens(enc, text) == whole, text
        assert vocab.count_tokens(enc, text) == whole, text  # the second time from what was remembered


def test_the_decoded_ranks_are_kept_for_the_next_process(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fresh = vocab.qwen_ranks.__wrapped__  # past this process's own cache
    cache = vocab.ranks_cache(vocab.qwen_vocab_path())
    assert str(cache).startswith(str(tmp_path)) and not cache.exists()
    ranks = fresh()
    assert cache.is_file() and fresh() == ranks == vocab.qwen_ranks()
    cache.write_bytes(cache.read_bytes()[:1000])  # a damaged copy is decoded again and replaced
    assert fresh() == ranks and len(cache.read_bytes()) > 1000
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/no-such-folder")  # nowhere to write: decoded every time
    assert fresh() == ranks
