"""Device libraries tritium provides to Triton kernels (see libdevice)."""
