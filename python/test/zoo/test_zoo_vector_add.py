"""Zoo: element-wise vector add with a tail mask (one program per BLOCK elements)."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def zoo_add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    in_bounds = offs < n_elements
    x = tl.load(x_ptr + offs, mask=in_bounds)
    y = tl.load(y_ptr + offs, mask=in_bounds)
    tl.store(out_ptr + offs, x + y, mask=in_bounds)


def add(x, y, block=256):
    assert x.shape == y.shape and x.dtype == y.dtype
    out = torch.empty_like(x)
    n = out.numel()
    zoo_add_kernel[(triton.cdiv(n, block), )](x, y, out, n, BLOCK=block)
    return out


DTYPES = [torch.float32, torch.float16, torch.bfloat16]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("n", [1, 7, 255, 256, 257, 1000, 4096, 98432])
def test_vector_add(n, dtype):
    x = torch.randn(n).to(dtype)
    y = torch.randn(n).to(dtype)
    out = add(x, y)
    # one rounding of the exact sum in `dtype` on both sides: results must be bit-identical
    torch.testing.assert_close(out, x + y, rtol=0, atol=0, msg=lambda m: f"add n={n} {dtype}: {m}")


@pytest.mark.parametrize("block", [16, 128, 1024])
def test_vector_add_block_sizes(block):
    n = 3 * block + 5
    x, y = torch.randn(n), torch.randn(n)
    torch.testing.assert_close(add(x, y, block=block), x + y, rtol=0, atol=0)


def test_vector_add_mask_protects_memory_past_the_end():
    # the output is a view into a larger buffer; the tail program must not write past n
    n, block = 100, 64
    buf = torch.full((2 * block, ), 7.0)
    x, y = torch.randn(n), torch.randn(n)
    out = buf[:n]
    zoo_add_kernel[(triton.cdiv(n, block), )](x, y, out, n, BLOCK=block)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    assert torch.all(buf[n:] == 7.0), f"kernel wrote past n: {buf[n:]}"
