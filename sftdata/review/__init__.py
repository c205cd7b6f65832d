"""Human review through Label Studio: export tasks, import decisions, measure agreement (see ``sftdata review``)."""
