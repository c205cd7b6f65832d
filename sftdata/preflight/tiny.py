"""Tiny, randomly initialised local models of the Qwen2.5-VL, Qwen3-VL and GLM-4.1V families, so that ms-swift's
own templates can encode our shards (and ``swift sft`` can train on them) offline, on CPU.

* :func:`qwen_tokenizer`: a Hugging Face fast tokenizer built from the Qwen2 vocabulary that ships in the
  ``dashscope`` package (``dashscope/resources/qwen.tiktoken``), with the family's added tokens at their real ids.
* :func:`tiny_model_dir`: config (real transformers config class, tiny sizes, the real patch/merge sizes),
  processor files and tokenizer, optionally random float32 weights.
* :func:`swift_encode_rows`: rows of a shard through ms-swift's dataset preprocessing and ``template.encode``
  exactly as ``swift sft`` builds them; per row the length, image pads and labelled tokens.
* :func:`swift_packs`: the packs ``--packing true`` forms from those lengths (Swift's own packing function).

GLM-4.1V: no GLM vocabulary is available offline, so its tokenizer is the first 151,329 Qwen ranks plus GLM-4.1V's
added tokens from id 151329 on (151329-151344 as GLM-4.1V's config and GLM-4's tokenizer have them; ms-swift
hard-codes <|begin_of_image|> = 151339, <|end_of_image|> = 151340; the ids of the tokens after <|video|> are the
GLM-4.x order, unverified for GLM-4.1V). Text token counts are then Qwen's, not GLM's; the framing and image
token counts are GLM-4.1V's. Heavy imports (torch, transformers, swift) happen inside functions.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

from ..families import FAMILIES, TEMPLATES
from ..export.vocab import QWEN2_PATTERN, qwen_ranks


def _added(family) -> list[tuple[str, bool]]:
    """The family's added tokens (the family registry's) as (content, special)."""
    return [(t, i < family.special_count) for i, t in enumerate(family.special_tokens)]


def _chat_template(family) -> str:
    """The simplified chat template the tiny model ships (its Swift template's, default system filled in)."""
    system = family.default_system
    return family.template.jinja.replace("default_system", "none" if system is None else repr(system))


def _ranks(limit: int) -> dict[bytes, int]:
    """The Qwen2 BPE ranks (token bytes -> rank) from dashscope's ``qwen.tiktoken``, ranks below ``limit``."""
    ranks = qwen_ranks()
    if ranks is None:
        raise FileNotFoundError("the Qwen vocabulary is not installed (pip install dashscope)")
    return {token: rank for token, rank in ranks.items() if rank < limit}


def qwen_tokenizer(dest_dir: str | os.PathLike, family: str = "qwen3-vl") -> Path:
    """Write tokenizer.json + tokenizer_config.json for ``family`` into ``dest_dir`` and return it.

    Byte-level BPE over the Qwen2 ranks (merges derived by transformers' ``TikTokenConverter``), Qwen2's
    pre-tokenizer regex, NFC normalisation, then the family's added tokens in their official order and ids.
    """
    from tokenizers import AddedToken, normalizers
    from transformers.convert_slow_tokenizer import TikTokenConverter

    fam = FAMILIES[family]
    first, added = fam.first_special_id, _added(fam)
    ranks = _ranks(first)

    class _Converter(TikTokenConverter):
        def load_tiktoken_bpe(self, _url):  # the ranks are already in memory
            return ranks

    tok = _Converter(vocab_file="qwen.tiktoken", pattern=QWEN2_PATTERN).converted()
    tok.normalizer = normalizers.NFC()
    for i, (content, special) in enumerate(added):
        token = AddedToken(content, normalized=False, special=special)
        (tok.add_special_tokens if special else tok.add_tokens)([token])
        if tok.token_to_id(content) != first + i:
            raise AssertionError(f"{content} got id {tok.token_to_id(content)}, expected {first + i}")
    dest = Path(dest_dir)
    dest.mkdir(parents=True, exist_ok=True)
    tok.save(str(dest / "tokenizer.json"))
    decoder = {str(first + i): {"content": c, "lstrip": False, "normalized": False, "rstrip": False,
                                "single_word": False, "special": s} for i, (c, s) in enumerate(added)}
    config = {"add_prefix_space": False, "added_tokens_decoder": decoder, "bos_token": None,
              "chat_template": _chat_template(fam), "clean_up_tokenization_spaces": False, "eos_token": fam.eos_token,
              "errors": "replace", "model_max_length": 131072, "pad_token": fam.pad_token,
              "split_special_tokens": False, "tokenizer_class": fam.tokenizer_class, "unk_token": None}
    if fam.tokenizer_class == "Qwen2Tokenizer":  # Qwen's tokenizer_config lists its special tokens again
        config["additional_special_tokens"] = [t for t, special in added[1:] if special]
    (dest / "tokenizer_config.json").write_text(json.dumps(config, ensure_ascii=False, indent=2), encoding="utf-8")
    return dest


def check_against_tiktoken(tokenizer_dir: str | os.PathLike, texts: Iterable[str]) -> list[str]:
    """Texts whose ids from the tokenizer in ``tokenizer_dir`` differ from ``tiktoken`` over the same ranks and
    regex, fed the NFC form (the tokenizer normalises to NFC, tiktoken does not). Texts should hold no added
    tokens. Empty list = identical."""
    import unicodedata

    import tiktoken
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(tokenizer_dir) / "tokenizer.json"))
    ranks = _ranks(tok.get_vocab_size(with_added_tokens=False))
    enc = tiktoken.Encoding("qwen-check", pat_str=QWEN2_PATTERN, mergeable_ranks=ranks, special_tokens={})
    return [t for t in texts
            if tok.encode(t, add_special_tokens=False).ids != enc.encode_ordinary(unicodedata.normalize("NFC", t))]


def _configs(family: str):
    """(config, model class, image processor, video processor, processor class name) of a tiny ``family``: tiny
    sizes, the family's own patch, merge and temporal patch sizes, pixel limits and vocabulary size."""
    fam = FAMILIES[family]
    common = {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 2,
              "num_key_value_heads": 1, "vocab_size": fam.vocab_size, "max_position_embeddings": 131072}
    vision = {"depth": 2, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 64,
              "patch_size": fam.patch_size, "spatial_merge_size": fam.merge_size,
              "temporal_patch_size": fam.temporal_patch_size}
    patches = {"patch_size": fam.patch_size, "merge_size": fam.merge_size,
               "temporal_patch_size": fam.temporal_patch_size}
    shortest, longest = fam.pixel_limits
    if fam.swift_model_type == "qwen2_5_vl":
        from transformers import (Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2VLImageProcessor,
                                  Qwen2VLVideoProcessor)
        config = Qwen2_5_VLConfig(
            text_config={**common, "rope_scaling": {"type": "mrope", "mrope_section": [4, 6, 6]},
                         "rope_theta": 1000000.0},
            vision_config={**vision, "window_size": 112, "fullatt_block_indexes": [1]},
            tie_word_embeddings=True)
        images = Qwen2VLImageProcessor(min_pixels=shortest, max_pixels=longest, **patches)
        return config, Qwen2_5_VLForConditionalGeneration, images, Qwen2VLVideoProcessor(), "Qwen2_5_VLProcessor"
    if fam.swift_model_type == "qwen3_vl":
        from transformers import (Qwen2VLImageProcessor, Qwen3VLConfig, Qwen3VLForConditionalGeneration,
                                  Qwen3VLVideoProcessor)
        config = Qwen3VLConfig(
            text_config={**common, "head_dim": 32, "rope_theta": 5000000.0,
                         "rope_scaling": {"rope_type": "default", "mrope_section": [4, 6, 6],
                                          "mrope_interleaved": True}},
            vision_config={**vision, "num_position_embeddings": 2304, "deepstack_visual_indexes": [0]},
            tie_word_embeddings=True)
        images = Qwen2VLImageProcessor(size={"shortest_edge": shortest, "longest_edge": longest}, **patches,
                                       image_mean=[0.5] * 3, image_std=[0.5] * 3)
        return config, Qwen3VLForConditionalGeneration, images, Qwen3VLVideoProcessor(), "Qwen3VLProcessor"
    if fam.swift_model_type == "glm4v":
        from transformers import (Glm4vConfig, Glm4vForConditionalGeneration, Glm4vImageProcessor,
                                  Glm4vVideoProcessor)
        config = Glm4vConfig(
            text_config={**common, "partial_rotary_factor": 0.5, "attention_bias": True,
                         "pad_token_id": fam.token_id(fam.pad_token),
                         "eos_token_id": [fam.token_id(t) for t in fam.template.stop_words],
                         "rope_scaling": {"rope_type": "default", "mrope_section": [2, 3, 3]}, "rope_theta": 10000.0},
            vision_config={**vision, "image_size": 336},
            tie_word_embeddings=True)
        images = Glm4vImageProcessor(size={"shortest_edge": shortest, "longest_edge": longest}, **patches)
        return config, Glm4vForConditionalGeneration, images, Glm4vVideoProcessor(), "Glm4vProcessor"
    raise ValueError(f"no tiny model for {family!r} (Swift model type {fam.swift_model_type}); tiny models: "
                     + ", ".join(tiny_families()))


def tiny_families() -> list[str]:
    """The families :func:`tiny_model_dir` can build (those of the Qwen2.5-VL, Qwen3-VL and GLM-4.1V types)."""
    return [name for name, f in FAMILIES.items() if f.swift_model_type in ("qwen2_5_vl", "qwen3_vl", "glm4v")]


def tiny_model_dir(family: str, dest_dir: str | os.PathLike, weights: bool = True, seed: int = 0) -> Path:
    """A local model directory of ``family`` (one of :func:`tiny_families`) that ms-swift 4.6 loads
    (``--model DIR --model_type/--template`` from :func:`swift_types`): tiny config with the real patch, merge
    and temporal patch sizes and token ids, processor files, tokenizer and (``weights``) random float32 weights
    (~10M parameters, nearly all of them the tied 152k x 64 embedding)."""
    import transformers
    from transformers import AutoTokenizer

    dest = Path(dest_dir)
    config, model_cls, image_processor, video_processor, processor_name = _configs(family)
    qwen_tokenizer(dest, family)
    tokenizer = AutoTokenizer.from_pretrained(str(dest))
    processor = getattr(transformers, processor_name)(image_processor=image_processor, tokenizer=tokenizer,
                                                      video_processor=video_processor,
                                                      chat_template=_chat_template(FAMILIES[family]))
    processor.save_pretrained(str(dest))  # processor_config.json (+ chat_template.jinja)
    image_processor.save_pretrained(str(dest))  # preprocessor_config.json, as the real repos ship it
    video_processor.save_pretrained(str(dest))  # video_preprocessor_config.json
    qwen_tokenizer(dest, family)  # the canonical tokenizer files, whatever the processor wrote over them
    if weights:
        import torch
        torch.manual_seed(seed)
        model = model_cls(config).to(torch.float32)
        model.save_pretrained(str(dest))
    else:
        config.save_pretrained(str(dest))
    return dest


def swift_types(model_dir: str | os.PathLike, model_type: str | None = None,
                template_type: str | None = None) -> tuple[str | None, str | None]:
    """(model_type, template) to give ms-swift for ``model_dir``: the family's, from config.json's model_type
    (swift cannot choose by itself between qwen3_vl/qwen3_vl_emb/qwen3_vl_reranker, nor qwen2_5_vl/mimo_vl)."""
    config_type = json.loads((Path(model_dir) / "config.json").read_text())["model_type"]
    family = next((f for f in FAMILIES.values() if f.swift_model_type == config_type), None)
    return (model_type or (family.swift_model_type if family else None),
            template_type or (family.swift_template if family else None))


def swift_encode_rows(model_dir: str | os.PathLike, rows: Iterable[dict] | str | os.PathLike, *,
                      root_image_dir: str | os.PathLike | None = None, max_length: int = 1 << 20,
                      model_type: str | None = None, template_type: str | None = None, keep: bool = False,
                      errors: bool = False, **template_kwargs) -> list[dict[str, Any]]:
    """Encode ``rows`` (dicts as read from a shard, or a shard path) the way ``swift sft`` does: Swift's dataset
    preprocessing (``swift.dataset.load_dataset``), the template from ``get_template`` with SFT's defaults
    (loss_scale 'default', the template's own agent template, e.g. hermes for Qwen) in 'train' mode.

    Per row: ``length`` (input_ids), ``image_pads`` (image placeholder tokens), ``labelled`` (labels != -100),
    ``assistant_only`` (every labelled span directly follows an assistant opener and holds no other turn's markers
    or images, end-of-turn tokens aside), ``lengths`` (what ``--packing`` packs by), and with ``keep`` the
    ``input_ids``/``labels`` themselves.
    Relative image paths resolve against ``root_image_dir`` (exported as ROOT_IMAGE_DIR, as ms-swift reads it).
    With ``errors``, a row Swift cannot encode gives ``{"error": ...}`` instead of raising. Swift's loader may drop
    rows it cannot read: compare the count with the shard's lines.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if root_image_dir is not None:
        os.environ["ROOT_IMAGE_DIR"] = str(root_image_dir)
    from swift.dataset import load_dataset
    from swift.model import get_processor
    from swift.template import get_template

    model_type, template_type = swift_types(model_dir, model_type, template_type)
    processor = get_processor(str(model_dir), model_type=model_type, use_hf=True, download_model=False)
    kwargs = {"max_length": max_length, "truncation_strategy": "raise", "loss_scale": "default", **template_kwargs}
    template = get_template(processor, template_type=template_type, **kwargs)
    template.set_mode("train")
    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(rows, (str, os.PathLike)):
            path = str(rows)
        else:
            path = os.path.join(tmp, "rows.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        dataset, _ = load_dataset([path], num_proc=1, load_from_cache_file=False, shuffle=False)
        pad = template.placeholder_tokens[0]  # <|image_pad|> / <|image|>, already an id once the template is built
        pad_ids = {processor.tokenizer.convert_tokens_to_ids(pad) if isinstance(pad, str) else pad}
        out = []
        for row in dataset:
            try:
                encoded = template.encode(row, return_length=True)
            except Exception as exc:  # noqa: BLE001 - a row Swift cannot encode is a finding, not a crash
                if not errors:
                    raise
                out.append({"error": f"{type(exc).__name__}: {str(exc)[:300]}"})
                continue
            ids, labels = encoded["input_ids"], encoded["labels"]
            item = {"length": len(ids), "image_pads": sum(i in pad_ids for i in ids),
                    "labelled": sum(x != -100 for x in labels), "lengths": encoded["lengths"],
                    "assistant_only": _labels_are_answers(processor.tokenizer, ids, labels)}
            if keep:
                item.update(input_ids=ids, labels=labels)
            out.append(item)
    return out


# the markup of every registered template: what a labelled span must follow, the turn ends it may close with, and
# the other turns' markers and images it must not hold
_OPENERS = tuple(dict.fromkeys(t.assistant_opener for t in TEMPLATES.values()))
_ENDS = tuple(dict.fromkeys(e for t in TEMPLATES.values() for e in t.turn_ends))
_FOREIGN = tuple(dict.fromkeys(m for t in TEMPLATES.values() for m in t.markers))


def _labels_are_answers(tokenizer, ids: list[int], labels: list[int]) -> bool:
    """Each labelled span starts right after an assistant opener and holds no other turn's markers or images,
    except the end-of-turn tokens it closes with."""
    spans, start = [], None
    for k, label in enumerate(list(labels) + [-100]):
        if label != -100 and start is None:
            start = k
        elif label == -100 and start is not None:
            spans.append((start, k))
            start = None
    for a, b in spans:
        before = tokenizer.decode(ids[max(0, a - 8):a], skip_special_tokens=False).rstrip("\n")
        text = tokenizer.decode(ids[a:b], skip_special_tokens=False)
        while text.endswith(_ENDS):
            text = text[:-len(next(e for e in _ENDS if text.endswith(e)))]
        if not before.endswith(_OPENERS) or any(m in text for m in _FOREIGN):
            return False
    return bool(spans)


def swift_packs(lengths: list[int], packing_length: int, strategy: str = "sequential") -> list[list[int]]:
    """The packs (row indices) ms-swift forms from ``lengths`` (per row in dataset order: ``swift_encode_rows``'
    ``length``, = ``sum(lengths)``, rows over ``--max_length`` already dropped) with ``--packing true
    --packing_strategy STRATEGY --packing_num_proc 1``: its own
    ``swift.dataset.packing.calculate_matched_group`` over (index, length) pairs, fed in its batches of
    ``PackingDataset.PACKING_BATCH_SIZE`` as ``PackingDataset.create_packed_idx`` does."""
    from swift.dataset.packing import PackingDataset, calculate_matched_group

    data, packs, pending = list(enumerate(lengths)), [], []
    step = PackingDataset.PACKING_BATCH_SIZE
    for i in range(0, len(data), step):
        pending += data[i:i + step]
        done, pending = calculate_matched_group(pending, packing_length, is_finished=i + step >= len(data),
                                                strategy=strategy)
        packs += [[idx for idx, _ in pack] for pack in done]
    return packs


def main(argv: list[str] | None = None) -> int:
    """``python -m sftdata.preflight.tiny FAMILY DIR``: a tiny random model to smoke-test train.sh on a CPU."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m sftdata.preflight.tiny", description=main.__doc__)
    ap.add_argument("family", choices=sorted(tiny_families()))
    ap.add_argument("dest")
    ap.add_argument("--no-weights", action="store_true", help="processor and tokenizer only (for preflight)")
    args = ap.parse_args(argv)
    try:
        path = tiny_model_dir(args.family, args.dest, weights=not args.no_weights)
    except ImportError as exc:
        import sys
        print(f"tiny: {exc.name or exc} is not installed; this needs the Swift extra (make swift, or pip install "
              "'sftdata[swift]')", file=sys.stderr)
        return 1
    print(f"wrote a tiny {args.family} model to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
