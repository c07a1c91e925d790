"""Passing numpy arrays to @triton.jit kernels.

Triton's JIT only accepts objects with `data_ptr()` and a torch-like `dtype`; numpy arrays
have neither. `as_tensor_arg(array)` wraps an array (without copying) so it can be passed:

    out = np.empty_like(x)
    add_kernel[grid](as_tensor_arg(x), as_tensor_arg(y), as_tensor_arg(out), n, BLOCK=1024)

The array must stay alive during the launch; results are written into it in place.
"""

import numpy as np

_TRITON_DTYPE_NAMES = {
    np.dtype(np.bool_): "int1",
    np.dtype(np.int8): "int8",
    np.dtype(np.int16): "int16",
    np.dtype(np.int32): "int32",
    np.dtype(np.int64): "int64",
    np.dtype(np.uint8): "uint8",
    np.dtype(np.uint16): "uint16",
    np.dtype(np.uint32): "uint32",
    np.dtype(np.uint64): "uint64",
    np.dtype(np.float16): "fp16",
    np.dtype(np.float32): "fp32",
    np.dtype(np.float64): "fp64",
}


class _DType:
    """Enough of a torch dtype for Triton's signature: `str()` gives `torch.<name>`-like text."""

    _TORCH_NAMES = {
        "int1": "bool", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
        "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
        "fp16": "float16", "fp32": "float32", "fp64": "float64",
    }

    def __init__(self, triton_name):
        self.triton_name = triton_name

    def __str__(self):
        return "torch." + self._TORCH_NAMES[self.triton_name]

    __repr__ = __str__


class NumpyTensorArg:
    """A numpy array seen by Triton as a tensor argument."""

    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"tritium.as_tensor_arg expects a numpy array, got {type(array).__name__}")
        if array.dtype not in _TRITON_DTYPE_NAMES:
            raise TypeError(f"tritium.as_tensor_arg: numpy dtype {array.dtype} has no Triton type")
        self.array = array
        self.dtype = _DType(_TRITON_DTYPE_NAMES[array.dtype])

    # Host memory: the launcher's device check asks torch tensors the same question.
    is_cpu = True

    def data_ptr(self):
        return self.array.ctypes.data

    def element_size(self):
        return self.array.itemsize

    def __getattr__(self, name):
        return getattr(self.array, name)


def as_tensor_arg(array):
    return NumpyTensorArg(array)
