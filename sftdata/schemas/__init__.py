"""JSON Schemas shipped with the package (``schemas/`` at the repository root links here).

>>> load("episode")["title"]
'sftdata canonical episode'
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    """The schema ``<name>.schema.json`` as a dict."""
    return json.loads(resources.files(__package__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def validator(name: str):
    """A cached Draft 2020-12 validator for schema ``name``."""
    import jsonschema

    schema = load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)
