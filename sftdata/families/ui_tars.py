"""UI-TARS-1.5 (ByteDance-Seed/UI-TARS-1.5-7B), a fine-tune of Qwen2.5-VL-7B: its image rule, tokenizer and Swift
template are Qwen2.5-VL's. ms-swift 4.6 registers the UI-TARS (1.0) checkpoints under their base model's
``qwen2_vl`` model type and template (swift/model/models/qwen.py); UI-TARS-1.5's config is Qwen2.5-VL's
(``Qwen2_5_VLForConditionalGeneration``), so it is ``qwen2_5_vl`` with the ``qwen2_5_vl`` template.

Its own facts are the point convention of its answers (seed 004 F.4): ``<point>x y</point>`` in pixels of the
image it sees, i.e. after the Qwen2.5-VL smart resize.

>>> fam = FAMILIES["ui-tars"]
>>> fam.resize(1080, 2400), fam.point_text(546, 1204), fam.swift_template, fam.base
((1092, 2408), '<point>546 1204</point>', 'qwen2_5_vl', 'qwen2.5-vl')
"""
from __future__ import annotations

from dataclasses import replace

from .record import FAMILIES, register_family

_BASE = "qwen2.5-vl"
register_family(replace(FAMILIES[_BASE], name="ui-tars", default_model="ByteDance-Seed/UI-TARS-1.5-7B", base=_BASE,
                        agent_system=None, point_markup="<point>{x} {y}</point>"))
