"""Float max and min reductions over rows, with NaN, infinities and signed zeros.

`tl.max`/`tl.min` ignore NaN unless every value is NaN (LLVM's maxnum/minnum); a `tl.reduce`
with `tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)` lets any NaN win (maximum/minimum), and
so does Inductor's combiner `where((a > b) | (a != a), a, b)` (tritium reduces it as maximum). The vectorized loops end in a vector
reduction that tritium folds as a tree of halving steps; these rows put the special values in
every lane position that tree meets (first, last, the halves' edges) and at every length the
loop splits differently (below one vector, whole vectors, masked tails).
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def max_propagating_nan(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def min_propagating_nan(a, b):
    return tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def inductor_maximum(a, b):  # torch._inductor.runtime.triton_helpers.maximum, for floats
    mask = a > b
    mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def inductor_minimum(a, b):
    mask = a < b
    mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def row_min_max_kernel(x_ptr, out_ptr, stride, n_cols, OP: tl.constexpr, PROPAGATE: tl.constexpr,
                       BLOCK: tl.constexpr, INDUCTOR: tl.constexpr = False):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    if OP == "max":
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
        if INDUCTOR:
            result = tl.reduce(x, 0, inductor_maximum)
        elif PROPAGATE:
            result = tl.reduce(x, 0, max_propagating_nan)
        else:
            result = tl.max(x, axis=0)
    else:
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("inf"))
        if INDUCTOR:
            result = tl.reduce(x, 0, inductor_minimum)
        elif PROPAGATE:
            result = tl.reduce(x, 0, min_propagating_nan)
        else:
            result = tl.min(x, axis=0)
    tl.store(out_ptr + row, result)


def special_rows(n_cols, generator):
    """Rows of random values with NaN / inf / -0 planted at the lanes a reduction tree splits at."""
    rows = []
    edges = sorted({0, 1, n_cols // 2 - 1, n_cols // 2, n_cols - 2, n_cols - 1, 15, 16, 63, 64} &
                   set(range(n_cols)))
    base = lambda: torch.randn(n_cols, generator=generator, dtype=torch.float64) * 100
    rows.append(base())
    for lane in edges:
        for value in (float("nan"), float("inf"), -float("inf")):
            row = base()
            row[lane] = value
            rows.append(row)
    all_nan = torch.full((n_cols, ), float("nan"), dtype=torch.float64)
    rows.append(all_nan)
    one_number = all_nan.clone()
    one_number[edges[-1]] = 7.0
    rows.append(one_number)
    zeros = torch.zeros(n_cols, dtype=torch.float64)
    zeros[edges[len(edges) // 2]] = -0.0
    rows.append(zeros)
    rows.append(-zeros - 1.0)
    return torch.stack(rows)


def reference(x, op, propagate, block):
    """Over the row as the kernel sees it: padded to the block with the load's `other`."""
    padding = np.full((x.shape[0], block - x.shape[1]), -np.inf if op == "max" else np.inf)
    values = np.concatenate([x.double().numpy(), padding], axis=1)
    if propagate:
        return (np.max if op == "max" else np.min)(values, axis=1)
    with np.errstate(invalid="ignore"):
        return (np.fmax if op == "max" else np.fmin).reduce(values, axis=1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("n_cols", [3, 8, 16, 100, 256, 1000, 1024, 4096])
@pytest.mark.parametrize("op,propagate", [("max", False), ("min", False), ("max", True), ("min", True)])
def test_row_min_max_with_special_values(dtype, n_cols, op, propagate):
    generator = torch.Generator().manual_seed(n_cols)
    x = special_rows(n_cols, generator).to(dtype)
    out = torch.empty(x.shape[0], dtype=dtype)
    block = triton.next_power_of_2(n_cols)
    row_min_max_kernel[(x.shape[0], )](x, out, x.stride(0), n_cols, OP=op, PROPAGATE=propagate, BLOCK=block)
    expected = reference(x, op, propagate, block)
    got = out.double().numpy()
    # +0 and -0 compare equal: maxnum may return either for a tie between them.
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("op,propagate,name", [("max", False, "maxnum"), ("min", False, "minnum"),
                                               ("max", True, "maximum"), ("min", True, "minimum")])
def test_the_vector_reduction_is_a_tree(op, propagate, name):
    x = torch.randn(4, 1024)
    out = torch.empty(4)
    compiled = row_min_max_kernel[(4, )](x, out, x.stride(0), 1024, OP=op, PROPAGATE=propagate, BLOCK=1024)
    llir = compiled.asm["llir"]
    # No serial reduction left for instruction selection; halving steps on vectors instead.
    assert "llvm.vector.reduce.f" not in llir
    assert f"@llvm.{name}.v" in llir


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("n_cols", [3, 16, 100, 1024, 8192])
@pytest.mark.parametrize("op", ["max", "min"])
def test_inductor_combiners_with_special_values(dtype, n_cols, op):
    """Inductor's NaN-propagating combiners give numpy's max/min (a NaN wins); +0 and -0 tie."""
    generator = torch.Generator().manual_seed(n_cols + 1)
    x = special_rows(n_cols, generator).to(dtype)
    out = torch.empty(x.shape[0], dtype=dtype)
    block = triton.next_power_of_2(n_cols)
    compiled = row_min_max_kernel[(x.shape[0], )](x, out, x.stride(0), n_cols, OP=op, PROPAGATE=True, BLOCK=block,
                                                  INDUCTOR=True)
    np.testing.assert_array_equal(out.double().numpy(), reference(x, op, True, block))
    if dtype == torch.float32 and n_cols >= 1024:
        # One vectorized pass with LLVM's maximum/minimum, not a tree of selects over pairs.
        assert f"@llvm.{'maximum' if op == 'max' else 'minimum'}.v" in compiled.asm["llir"]


@pytest.mark.parametrize("op,propagate", [("max", False), ("min", False), ("max", True), ("min", True)])
def test_rows_without_nan_take_the_fast_loop(op, propagate):
    """A NaN-free row is reduced with plain vmaxps/vminps (nnan) while an integer max of the
    values' magnitudes watches for NaN; the exact loop is kept for rows that have one."""
    x = torch.randn(4, 1024)
    out = torch.empty(4)
    compiled = row_min_max_kernel[(4, )](x, out, x.stride(0), 1024, OP=op, PROPAGATE=propagate, BLOCK=1024)
    torch.testing.assert_close(out, x.amax(1) if op == "max" else x.amin(1), rtol=0, atol=0)
    llir = compiled.asm["llir"]
    fast = "maxnum" if op == "max" else "minnum"
    assert f"nnan nsz <8 x float> @llvm.{fast}.v8f32" in llir or f"nnan nsz <16 x float> @llvm.{fast}.v16f32" in llir
    assert "@llvm.umax.v" in llir  # the magnitudes' bits
    exact = {("max", False): "maxnum", ("min", False): "minnum", ("max", True): "maximum",
             ("min", True): "minimum"}[op, propagate]
    assert f"@llvm.{exact}.v" in llir


@triton.jit
def tile_row_min_max_kernel(x_ptr, out_ptr, n_rows, n_cols, OP: tl.constexpr, PROPAGATE: tl.constexpr,
                            ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offsets = rows[:, None] * n_cols + cols[None, :]
    if OP == "max":
        x = tl.load(x_ptr + offsets, mask=mask, other=-float("inf"))
        result = tl.reduce(x, 1, max_propagating_nan) if PROPAGATE else tl.max(x, axis=1)
    else:
        x = tl.load(x_ptr + offsets, mask=mask, other=float("inf"))
        result = tl.reduce(x, 1, min_propagating_nan) if PROPAGATE else tl.min(x, axis=1)
    tl.store(out_ptr + rows, result, mask=rows < n_rows)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
@pytest.mark.parametrize("n_cols", [16, 100, 256])
@pytest.mark.parametrize("op,propagate", [("max", False), ("min", False), ("max", True), ("min", True)])
def test_tile_rows_with_special_values(dtype, n_cols, op, propagate):
    """Rows of a 2-D tile (each row's loop fast or exact on its own), NaN rows beside clean ones."""
    generator = torch.Generator().manual_seed(n_cols + 2)
    x = special_rows(n_cols, generator).to(dtype).contiguous()
    out = torch.empty(x.shape[0], dtype=dtype)
    block = triton.next_power_of_2(n_cols)
    tile_row_min_max_kernel[(triton.cdiv(x.shape[0], 4), )](x, out, x.shape[0], n_cols, OP=op, PROPAGATE=propagate,
                                                           ROWS=4, BLOCK=block)
    np.testing.assert_array_equal(out.double().numpy(), reference(x, op, propagate, block))
