"""tritium: an MLIR-based Triton compiler backend.

Installing tritium is enough: stock `triton` finds it through the `triton.backends` entry
point named `cpu`, and `@triton.jit` kernels then run on CPU tensors. This module adds the
few things Triton's own API has no place for.

Triton imports `tritium.backends.cpu` while `import triton` is still running, so nothing here
may import triton (or torch, or numpy) eagerly.
"""

from ._version import __version__
from .runtime import get_num_threads, get_thread_pool, set_num_threads, set_thread_pool

_LAZY = {
    "TritiumCompilationError": ("errors", "TritiumCompilationError"),
    "as_tensor_arg": ("numpy_adapter", "as_tensor_arg"),
}
# `tritium.ir` is a submodule: `from tritium import ir`.

__all__ = ["__version__", "get_num_threads", "get_thread_pool", "set_num_threads", "set_thread_pool", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    raise AttributeError(f"module 'tritium' has no attribute '{name}'")
