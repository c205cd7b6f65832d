"""The run's top-level options, declared once: the run config's top-level keys, ``sftdata run``'s flags (which
override them) and, as :data:`EXECUTOR_FLAGS`, the ``--executor``/``--address`` of every stage command that maps
units over an executor."""
from __future__ import annotations

from dataclasses import dataclass

from .executors import EXECUTORS
from .options import Flags, option, workers_option


@dataclass
class TopLevel:
    run_dir: str = option(None, "One directory holds every stage's outputs.", cli=False,
                          config_help="one directory holds every stage's outputs (a new name: never another run's)")
    workers: int = workers_option()
    executor: str = option("local", "Where the stages' units run: local (a process pool on this machine) or ray (Ray "
                           "tasks: a Ray started on 127.0.0.1 for this command and stopped afterwards, or the cluster "
                           "at --address; pip install 'sftdata[ray]'). Outputs are the same bytes either way. Annotate "
                           "and judge call the LLM from this process, so their --concurrency bounds the whole run, "
                           "cluster-wide.", choices=lambda: sorted(EXECUTORS), fingerprint=False,
                           config_help="local, or ray: the units as Ray tasks (docs/cluster.md).")
    address: str | None = option(None, "The Ray cluster to join (HOST:PORT of its head, or ray://HOST:PORT); only with "
                                 "--executor ray. Unreachable: one line and exit 1 within 10 s.", metavar="ADDR",
                                 fingerprint=False, example="head-node:6379",
                                 config_help="The Ray cluster to join (with executor = \"ray\").")
    strict: bool = option(False, "Stop at the first bad record instead of ledgering it.",
                          config_help="true: stop at the first bad record instead of ledgering it")


# --executor and --address on a stage command (export, validate, report; ingest takes every top-level option)
EXECUTOR_FLAGS = Flags(TopLevel, only=("executor", "address"))
