"""Launch arguments a CPU kernel cannot take are named, with what to do, before any program runs:
grids beyond 2^31-1 programs, tensors that are not in host memory, raw numpy arrays."""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

import tritium


@triton.jit
def scale(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) * 2, mask=mask)


@triton.jit
def scale_tiles(desc, out, BLOCK: tl.constexpr):
    tile = desc.load([tl.program_id(0) * BLOCK])
    tl.store(out + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), tile * 2)


def compiled_scale():
    x = torch.ones(16)
    scale[(1, )](x, x, 16, BLOCK=16)
    return next(iter(scale.device_caches[0][0].values()))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_a_grid_beyond_int32_says_so(axis):
    x = torch.ones(16)
    grid = [1, 1, 1]
    grid[axis] = 2**31
    with pytest.raises(ValueError, match=rf"grid size 2147483648 along {'xyz'[axis]} is beyond 2\^31-1"):
        scale[tuple(grid)](x, x, 16, BLOCK=16)


def test_a_grid_beyond_int32_says_so_for_descriptor_kernels():
    x = torch.ones(32)
    desc = TensorDescriptor.from_tensor(x, [16])
    with pytest.raises(ValueError, match=r"grid size 2147483648 along x"):
        scale_tiles[(2**31, )](desc, x, BLOCK=16)


def test_a_tensor_not_on_the_cpu_names_the_argument_and_its_device():
    x = torch.ones(16)
    on_meta = torch.empty(16, device="meta")
    with pytest.raises(ValueError) as error:
        scale[(1, )](x, on_meta, 16, BLOCK=16)
    message = str(error.value)
    assert "kernel 'scale', parameter 1 ('out')" in message
    assert "on device 'meta'" in message and "CPU" in message


def test_a_raw_numpy_array_is_told_to_be_wrapped():
    kernel = compiled_scale()
    array = np.ones(16, dtype=np.float32)
    with pytest.raises(TypeError) as error:
        kernel[(1, 1, 1)](array, torch.ones(16), 16, 16)
    message = str(error.value)
    assert "parameter 0 ('x')" in message and "tritium.as_tensor_arg" in message
    # Wrapped, the same array works.
    out = torch.zeros(16)
    kernel[(1, 1, 1)](tritium.as_tensor_arg(array), out, 16, 16)
    assert torch.equal(out, torch.full((16, ), 2.0))
