"""sftdata: GUI-agent trajectories -> supervised fine-tuning data for multimodal agent models."""
__version__ = "0.1.0"
