"""``python -m sftdata``: the ``sftdata`` command."""
from .cli_base import main

if __name__ == "__main__":
    main()
