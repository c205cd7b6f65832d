"""Human review through Label Studio: export tasks, import decisions, measure agreement (see ``sftdata review``)."""

ONLY = ("all", "failed", "passed", "unsure")  # which episodes `sftdata review export/push --only` takes
