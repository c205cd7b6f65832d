"""The run config: top-level keys are checked by their declarations like every table's."""
from pathlib import Path

import pytest

from sftdata.config import parse_config
from sftdata.errors import FatalError

SOURCE = '[[sources]]\ntype = "androidcontrol"\npaths = ["a.gz"]\n'


@pytest.mark.parametrize("top, message", [
    ('run_dir = "o"\nworkers = 0\n', "workers = 0 is out of range"),
    ("run_dir = 3\n", "run_dir = 3 should be str"),
    ('run_dir = "o"\nstrict = "yes"\n', "strict = 'yes' should be bool"),
    ("workers = 2\n", "run_dir is required"),
    ('run_dir = "o"\nwokers = 2\n', "unknown key(s) wokers"),
])
def test_top_level_values_are_refused_with_the_key(top, message):
    with pytest.raises(FatalError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_config(top + SOURCE, Path("/cfg"))


def test_top_level_values_reach_the_config():
    cfg = parse_config('run_dir = "out"\nworkers = 3\nstrict = true\n' + SOURCE, Path("/cfg"))
    assert (cfg.run_dir, cfg.workers, cfg.strict) == (Path("/cfg/out"), 3, True)
