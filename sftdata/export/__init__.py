"""Export: SFT samples, token-length estimates (``tokens``) and pack planning (``packing``) for ms-swift."""
