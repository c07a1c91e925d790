"""tritium's CPU target as a Triton backend (entry point `cpu` in group `triton.backends`)."""
