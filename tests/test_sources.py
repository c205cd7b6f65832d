"""Each [[sources]] kind takes only its own keys (a typed config per source, registered by type)."""
from pathlib import Path

import pytest

from sftdata.config import parse_config
from sftdata.errors import FatalError
from sftdata.sources import SOURCES, AnnotatedSource, Mind2WebSource


def _config(source: str) -> str:
    return f'run_dir = "run"\n[[sources]]\n{source}\n'


@pytest.mark.parametrize("source,message", [
    ('type = "mind2web"\npaths = ["m.parquet"]\ntolerance = 3', "[sources 1 (mind2web)]: unknown key(s) tolerance"),
    ('type = "annotated"\nroot = "a"\nsplits = "s.json"', "[sources 1 (annotated)]: unknown key(s) splits"),
    ('type = "androidcontrol"\npaths = ["x"]\nocr = true', "[sources 1 (androidcontrol)]: unknown key(s) ocr"),
    ('type = "annotated"', "[sources 1 (annotated)]: an annotated source needs root"),
    ('type = "tfrecord"\npaths = ["x"]', "type must be androidcontrol, annotated, mind2web, not 'tfrecord'"),
    ('type = "mind2web"\npaths = ["m.parquet"]\nviewport = "wide"', "viewport = 'wide' should be WIDTHxHEIGHT"),
    ('type = "annotated"\nroot = "a"\ntolerance = "far"', "tolerance"),
])
def test_a_source_refuses_keys_of_another_kind_naming_itself(source, message):
    with pytest.raises(FatalError) as e:
        parse_config(_config(source), Path("/cfg"))
    assert message in str(e.value)


def test_each_kind_is_registered_and_resolves_its_paths():
    assert set(SOURCES) == {"androidcontrol", "annotated", "mind2web"}
    cfg = parse_config(_config('type = "annotated"\nroot = "trajectories"\nocr = true\nepisodes = [7, "a"]'),
                       Path("/cfg"))
    src = cfg.sources[0]
    assert isinstance(src, AnnotatedSource) and src.root == Path("/cfg/trajectories") and src.ocr
    assert src.episodes == ["7", "a"] and src.type == "annotated"
    cfg = parse_config(_config('type = "mind2web"\npaths = ["/data/m.parquet"]\nscreenshots = "dump"'), Path("/cfg"))
    assert isinstance(cfg.sources[0], Mind2WebSource) and cfg.sources[0].paths == [Path("/data/m.parquet")]
    assert cfg.sources[0].screenshots == Path("/cfg/dump")
