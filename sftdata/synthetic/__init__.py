"""Synthetic AndroidControl-format trajectories: drawn phone screens (:mod:`.screens`) and the episode
generator (:mod:`.sample`, ``python -m sftdata.synthetic.sample``). Nothing here loads real data."""
