"""Checks of the exported shards against ms-swift itself (its templates, its ``swift sft``), on tiny local models."""
