"""Masked vector add: every dtype, sizes on and off the block."""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

import tritium
from conftest import random_tensor, tolerances


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x, y, block=1024):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, block), )](x, y, out, n, BLOCK=block)
    return out


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64,
                                   torch.int32, torch.int64, torch.int8, torch.int16])
@pytest.mark.parametrize("n", [1, 17, 1024, 4096, 98432, 100003])
def test_vector_add(dtype, n):
    x = random_tensor(n, dtype)
    y = random_tensor(n, dtype)
    out = add(x, y)
    rtol, atol = tolerances(dtype)
    torch.testing.assert_close(out, x + y, rtol=rtol, atol=atol)


def test_masked_lanes_are_not_written():
    n = 1000
    x, y = torch.randn(2048), torch.randn(2048)
    out = torch.full((2048, ), 7.0)
    add_kernel[(1, )](x, y, out, n, BLOCK=1024)
    torch.testing.assert_close(out[:n], x[:n] + y[:n])
    assert torch.all(out[n:] == 7.0)


@pytest.mark.parametrize("block", [16, 128, 4096])
def test_vector_add_block_sizes(block):
    x, y = torch.randn(10000), torch.randn(10000)
    torch.testing.assert_close(add(x, y, block), x + y)


def test_numpy_arrays_through_adapter():
    x = np.random.rand(5000).astype(np.float32)
    y = np.random.rand(5000).astype(np.float32)
    out = np.empty_like(x)
    arg = tritium.as_tensor_arg
    add_kernel[(triton.cdiv(5000, 1024), )](arg(x), arg(y), arg(out), 5000, BLOCK=1024)
    np.testing.assert_allclose(out, x + y, rtol=1e-6)


def test_adapter_rejects_non_arrays():
    with pytest.raises(TypeError, match="numpy array"):
        tritium.as_tensor_arg([1.0, 2.0])
