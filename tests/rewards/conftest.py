import pytest

from rl_support import demo_like_run


@pytest.fixture(scope="session")
def rl_run(tmp_path_factory):
    return demo_like_run(tmp_path_factory.mktemp("rl-run"))
