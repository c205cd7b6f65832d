"""The model families an export is sized and trained for: one record per family in one registry (as ms-swift's
``ModelMeta`` / ``TemplateMeta``), holding every fact sftdata uses about a family: its image rule (token-length
estimates without decoding an image or loading a model), its tokenizer's added tokens, Swift's template text, the
model and Swift types ``train.sh`` names, and the point convention of its own agent answers. Formats, export,
preflight and the loaders ask the record; none names a family's facts itself.

* ``FAMILIES[name]``: a :class:`Family` (:mod:`.record`); ``.image_tokens(w, h)`` is the number of image
  placeholder tokens, ``.image_overhead`` the special tokens around each image, ``.template`` Swift's template
  (:mod:`.templates`). The records: :mod:`.qwen` (qwen2-vl, qwen2.5-vl, qwen3-vl), :mod:`.glm` (glm-4.1v),
  :mod:`.ui_tars` (ui-tars).
* ``png_size``: (width, height) from a PNG, JPEG or WebP header (:mod:`.headers`).
* ``smart_resize`` / ``glm4v_smart_resize``: the resize rules of the Qwen2-VL and GLM-4.1V image processors
  (:mod:`.resize`).
* ``load_tokenizer``: a ``tokenizers.Tokenizer`` from a ``tokenizer.json`` (for ``--tokenizer``).

>>> fam = FAMILIES["qwen2.5-vl"]
>>> fam.image_tokens(1080, 2400), fam.image_overhead
(3354, 2)
>>> FAMILIES["qwen3-vl"].image_tokens(1080, 2400), FAMILIES["glm-4.1v"].image_tokens(1080, 2400)
(2550, 3354)
>>> list(FAMILIES)
['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl', 'glm-4.1v', 'ui-tars']
"""
from __future__ import annotations

from .headers import png_size
from .record import FAMILIES, Family, point_families, register_family
from .resize import glm4v_smart_resize, smart_resize
from .templates import TEMPLATES, AgentTemplate, ChatTemplate
from .tokenizer import load_tokenizer
from . import qwen, glm, ui_tars  # noqa: E402,F401  (the records, registered in this order)

__all__ = ["FAMILIES", "TEMPLATES", "AgentTemplate", "ChatTemplate", "Family", "glm4v_smart_resize",
           "load_tokenizer", "png_size", "point_families", "register_family", "smart_resize"]
