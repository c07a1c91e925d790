"""Device targets of tritium; each subpackage is one Triton backend (`cpu` first)."""
