"""tritium's reference target: the linalg stage lowered with upstream MLIR passes only (entry
point `reference` in group `triton.backends`; active only with TRITON_DEFAULT_BACKEND=reference)."""
