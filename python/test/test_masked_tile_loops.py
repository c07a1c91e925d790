"""Masked loads and stores at every position of the mask's bound.

The loop of a masked tile access runs the iterations inside the bound without testing the mask
(tritium-cpu-split-loops-at-mask-bounds) and the rest with it. These kernels put the bound before,
inside, at and after every block, with the comparison written each way Triton code writes it, and with
`other=` values that are not the reduction's identity.
"""

import re

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def masked_copy_kernel(src, dst, n, FORM: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if FORM == "lt":
        mask = offs < n
    elif FORM == "le":
        mask = offs <= n - 1
    elif FORM == "gt":
        mask = n > offs
    else:  # "ge"
        mask = n - 1 >= offs
    x = tl.load(src + offs, mask=mask, other=-7.0)
    tl.store(dst + offs, x * 2.0, mask=mask)


@pytest.mark.parametrize("form", ["lt", "le", "gt", "ge"])
def test_every_bound_of_a_masked_copy(form):
    block = 16
    src = torch.arange(4 * block, dtype=torch.float32) + 1
    for n in range(-2, 4 * block + 3):
        dst = torch.full((4 * block, ), -1.0)
        masked_copy_kernel[(4, )](src, dst, n, FORM=form, BLOCK=block)
        inside = max(0, min(n, 4 * block))
        expected = torch.cat([src[:inside] * 2, torch.full((4 * block - inside, ), -1.0)])
        assert torch.equal(dst, expected), f"n = {n}"


@triton.jit
def masked_row_reduce_kernel(x_ptr, out_ptr, n_cols, OP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    if OP == "sum":
        x = tl.load(x_ptr + row * BLOCK + cols, mask=mask, other=0.5)  # not the identity: counts
        tl.store(out_ptr + row, tl.sum(x, axis=0))
    elif OP == "max":
        x = tl.load(x_ptr + row * BLOCK + cols, mask=mask, other=100.0)
        tl.store(out_ptr + row, tl.max(x, axis=0))
    else:  # min with the identity as other
        x = tl.load(x_ptr + row * BLOCK + cols, mask=mask, other=float("inf"))
        tl.store(out_ptr + row, tl.min(x, axis=0))


@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_row_reductions_with_every_column_count(op):
    block = 64
    x = torch.randn(3, block)
    for n_cols in (-1, 0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1000):
        out = torch.empty(3)
        masked_row_reduce_kernel[(3, )](x, out, n_cols, OP=op, BLOCK=block)
        inside = max(0, min(n_cols, block))
        filler = {"sum": 0.5, "max": 100.0, "min": float("inf")}[op]
        padded = torch.cat([x[:, :inside], torch.full((3, block - inside), filler)], dim=1)
        expected = {"sum": padded.sum(1), "max": padded.amax(1), "min": padded.amin(1)}[op]
        torch.testing.assert_close(out, expected, msg=f"n_cols = {n_cols}")


@triton.jit
def masked_2d_kernel(src, dst, n_rows, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * n_cols + cols[None, :]
    tl.store(dst + offs, tl.load(src + offs, mask=mask) + 1.0, mask=mask)


def test_two_dimensional_masks():
    for n_rows, n_cols in ((1, 1), (7, 33), (16, 32), (17, 31), (40, 70)):
        src = torch.randn(n_rows, n_cols)
        dst = torch.zeros_like(src)
        grid = (triton.cdiv(n_rows, 16), triton.cdiv(n_cols, 32))
        masked_2d_kernel[grid](src, dst, n_rows, n_cols, BLOCK_M=16, BLOCK_N=32)
        torch.testing.assert_close(dst, src + 1.0)


@triton.jit
def wrapping_offsets_kernel(src, dst, base, n, BLOCK: tl.constexpr):
    offs = base + tl.arange(0, BLOCK)  # int32: wraps to negative values past 2^31 - 1
    lanes = tl.arange(0, BLOCK)
    keep = offs < n
    tl.store(dst + lanes, tl.load(src + lanes, mask=keep, other=-1.0), mask=keep)


def test_offsets_that_wrap_around_int32():
    """Offsets past 2^31 - 1 wrap to negative numbers, which are below the bound again: the test must hold
    lane by lane, as written, on both sides of the wrap."""
    block = 64
    base = 2**31 - 10  # lanes 0..9 below 2^31, lanes 10..63 wrapped
    src = torch.arange(block, dtype=torch.float32)
    for n, kept in ((0, range(10, block)), (2**31 - 1, [*range(0, 9), *range(10, block)]), (-(2**31), [])):
        dst = torch.full((block, ), -1.0)
        wrapping_offsets_kernel[(1, )](src, dst, base, n, BLOCK=block)
        expected = torch.full((block, ), -1.0)
        expected[list(kept)] = src[list(kept)]
        assert torch.equal(dst, expected), f"n = {n}"


def test_the_unmasked_prefix_is_plain_vector_code():
    src = torch.randn(1000)
    dst = torch.empty_like(src)
    kernel = masked_copy_kernel[(triton.cdiv(1000, 256), )](src, dst, 1000, FORM="lt", BLOCK=256)
    llir = kernel.asm["llir"]
    assert re.search(r"= load <\d+ x float>", llir), "no unmasked vector load"
    assert re.search(r"store <\d+ x float>", llir), "no unmasked vector store"
    assert "llvm.masked.load" in llir  # the last program's remainder keeps its test
