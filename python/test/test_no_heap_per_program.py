"""No heap allocation per program: the compiled code of common kernels calls no allocator (tile
buffers are streamed into stores, kept in registers, updated in place across loop iterations, or
on the program's stack), and launches keep no native memory."""

import ctypes
import re

import pytest
import torch
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers

ALLOCATOR_CALL = re.compile(r"call [^\n]*@(malloc|aligned_alloc|calloc|realloc|free|posix_memalign)\(")


def allocator_calls(compiled):
    return sorted(set(m.group(1) for m in ALLOCATOR_CALL.finditer(compiled.asm["llir"])))


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask) + tl.load(y_ptr + offs, mask), mask)


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, 0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, 0), cols < n_cols)


@triton.jit
def looped_row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    """Inductor's reduction over a long row: a loop of loads into a running tile."""
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, 0))


@triton.jit
def argmax_cumsum_kernel(x_ptr, idx_ptr, scan_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + cols)
    tl.store(idx_ptr + row, tl.argmax(x, 0))
    tl.store(scan_ptr + row * BLOCK + cols, tl.cumsum(x, 0))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + rows * K + k + cols)
        b = tl.load(b_ptr + (k + rows) * BLOCK + cols)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rows * BLOCK + cols, acc)


@triton.jit
def scatter_add_kernel(out_ptr, index_ptr, value_ptr, BLOCK: tl.constexpr):
    """Inductor's max-pool backward's shape: relaxed adds at scattered addresses (computed into a buffer first)."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr + tl.load(index_ptr + offsets), tl.load(value_ptr + offsets), sem="relaxed")


def _scatter_add():
    index = torch.randint(0, 4096, (2048, ))
    out = torch.zeros(4096, dtype=torch.int32)
    compiled = scatter_add_kernel[(2, )](out, index.to(torch.int32), torch.ones(2048, dtype=torch.int32), BLOCK=1024)
    assert out.tolist() == torch.bincount(index, minlength=4096).tolist()
    return compiled


@triton.jit
def rows_in_branches_kernel(x_ptr, dy_ptr, dx_ptr, dw_ptr, n_rows, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    """Layer norm backward's shape: a loop over rows, each row's tiles in a branch (`if row < n_rows`), running
    sums of the rows carried across iterations."""
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    dw = tl.zeros((BLOCK, ), dtype=tl.float32)
    for i in range(ROWS):
        row = tl.program_id(0) * ROWS + i
        if row < n_rows:
            x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
            dy = tl.load(dy_ptr + row * n_cols + cols, mask=mask, other=0.0)
            c = tl.sum(x * dy, axis=0) / n_cols
            tl.store(dx_ptr + row * n_cols + cols, dy - x * c, mask=mask)
            dw += x * dy
    tl.store(dw_ptr + tl.program_id(0) * n_cols + cols, dw, mask=mask)


@triton.jit
def looped_log_sum_exp_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    """Inductor's looped log-softmax: a running max, then a running sum of exp(x - max) under the chunk's mask (the
    max reaches the sum through a broadcast)."""
    row = tl.program_id(0)
    base = tl.arange(0, BLOCK)[None, :]
    top = tl.full([1, BLOCK], float("-inf"), tl.float32)
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + base
        x = tl.load(x_ptr + row * n_cols + cols, cols < n_cols, other=0.0)
        top = tl.where(cols < n_cols, tl.maximum(top, x), top)
    row_max = tl.max(top, 1)[:, None]
    acc = tl.full([1, BLOCK], 0, tl.float32)
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + base
        x = tl.load(x_ptr + row * n_cols + cols, cols < n_cols, other=0.0)
        acc = tl.where(cols < n_cols, acc + tl.exp(x - row_max), acc)
    tl.store(out_ptr + row + tl.zeros([1, 1], tl.int32), row_max + tl.log(tl.sum(acc, 1)[:, None]))


def _looped_log_sum_exp(x):
    out = torch.empty(x.shape[0])
    compiled = looped_log_sum_exp_kernel[(x.shape[0], )](x, out, x.shape[1], BLOCK=256)
    torch.testing.assert_close(out, torch.logsumexp(x, 1))
    return compiled


def _rows_in_branches(x):
    """Runs rows_in_branches_kernel on x (rows not a multiple of ROWS, columns not of BLOCK) and checks it."""
    rows, cols = x.shape
    dy = torch.randn_like(x)
    dx = torch.empty_like(x)
    programs = triton.cdiv(rows, 4)
    dw = torch.empty(programs, cols)
    compiled = rows_in_branches_kernel[(programs, )](x, dy, dx, dw, rows, cols, ROWS=4, BLOCK=triton.next_power_of_2(cols))
    c = (x * dy).sum(1, keepdim=True) / cols
    torch.testing.assert_close(dx, dy - x * c, rtol=1e-5, atol=1e-5)
    padded = torch.nn.functional.pad(x * dy, (0, 0, 0, programs * 4 - rows))
    torch.testing.assert_close(dw, padded.view(programs, 4, cols).sum(1), rtol=1e-5, atol=1e-5)
    return compiled


@triton.jit
def looped_welford_kernel(x_ptr, mean_ptr, m2_ptr, weight_ptr, channels: tl.constexpr, r_numel: tl.constexpr,
                          XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    """Inductor's looped Welford statistics (batch norm over channels-last inputs): `mean`, `m2` and `weight`
    tiles carried across chunks of the reduction, updated under the chunk's mask; `m2` reads the `mean` that
    the same chunk has just replaced. As in Inductor's kernels the sizes are constants, and the masks split each
    tile's loops in two."""
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < channels
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = (r0_index < r_numel) & xmask
        x = tl.load(x_ptr + (xindex + channels * r0_index), r0_mask, other=0.0)
        next_mean, next_m2, next_weight = triton_helpers.welford_reduce(x, mean, m2, weight, r0_offset == 0)
        mean = tl.where(r0_mask, next_mean, mean)
        m2 = tl.where(r0_mask, next_m2, m2)
        weight = tl.where(r0_mask, next_weight, weight)
    tl.store(mean_ptr + xindex * R0_BLOCK + r0_base, mean, xmask)
    tl.store(m2_ptr + xindex * R0_BLOCK + r0_base, m2, xmask)
    tl.store(weight_ptr + xindex * R0_BLOCK + r0_base, weight, xmask)


def _looped_welford(rows, channels, xblock, r0_block):
    """Runs looped_welford_kernel over a [rows, channels] tensor (rows not a multiple of the chunk) and checks the
    statistics its partial tiles combine to."""
    x = torch.randn(rows, channels)
    mean, m2, weight = (torch.empty(channels, r0_block) for _ in range(3))
    compiled = looped_welford_kernel[(triton.cdiv(channels, xblock), )](x, mean, m2, weight, channels, rows,
                                                                          XBLOCK=xblock, R0_BLOCK=r0_block)
    total = weight.sum(1)
    combined_mean = (mean * weight).sum(1) / total
    combined_m2 = (m2 + weight * (mean - combined_mean[:, None])**2).sum(1)
    torch.testing.assert_close(total, torch.full((channels, ), float(rows)))
    torch.testing.assert_close(combined_mean, x.mean(0), rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(combined_m2 / rows, x.var(0, unbiased=False), rtol=1e-4, atol=1e-5)
    return compiled


def _cases():
    x = torch.randn(8, 1024)
    return {
        "vector add": lambda: add_kernel[(4, )](x, x, torch.empty_like(x), x.numel(), BLOCK=2048),
        "softmax": lambda: softmax_kernel[(8, )](x, torch.empty_like(x), 1024, BLOCK=1024),
        "looped row sum": lambda: looped_row_sum_kernel[(8, )](x, torch.empty(8), 1024, BLOCK=128),
        "argmax and cumsum": lambda: argmax_cumsum_kernel[(8, )](x, torch.empty(8, dtype=torch.int32),
                                                                 torch.empty_like(x), BLOCK=1024),
        "looped log-sum-exp": lambda: _looped_log_sum_exp(torch.randn(3, 1000)),
        "rows in branches of a loop": lambda: _rows_in_branches(torch.randn(10, 1000)),
        "scatter-add": _scatter_add,
        "looped Welford statistics": lambda: _looped_welford(1003, 64, 16, 8),
        "looped Welford statistics, long chunks": lambda: _looped_welford(3001, 72, 8, 512),
        "matmul": lambda: matmul_kernel[(1, )](torch.randn(32, 128), torch.randn(128, 32), torch.empty(32, 32), 128,
                                               BLOCK=32),
    }


@pytest.mark.parametrize("name", list(_cases()))
def test_kernel_code_calls_no_allocator(name):
    compiled = _cases()[name]()
    assert allocator_calls(compiled) == [], f"{name}: the kernel calls {allocator_calls(compiled)}"


def test_tiles_beyond_the_stack_budget_still_run_on_the_heap():
    """A 256 KiB tile is too large for a program's stack: it is allocated, and the kernel works."""
    x = torch.randn(65536)
    out = torch.empty_like(x)
    compiled = softmax_kernel[(1, )](x, out, 65536, BLOCK=65536)
    assert "malloc" in allocator_calls(compiled) or "aligned_alloc" in allocator_calls(compiled)
    torch.testing.assert_close(out, torch.softmax(x, 0))


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


_libc = ctypes.CDLL(None)
_libc.mallinfo2.restype = _MallInfo2


def _heap_bytes_in_use():
    """glibc's bytes in use on the native heap (mallinfo2's uordblks)."""
    return _libc.mallinfo2().uordblks


def test_launches_keep_no_native_memory():
    """Ten thousand launches (four tensors, a grid of 16 programs on every thread) end with the same bytes in
    use on the native heap as they started with: a launch keeps nothing (argument slots live on the stack,
    the thread pool's state is allocated once)."""
    x = torch.randn(16 * 256)
    out = torch.empty_like(x)
    compiled = add_kernel[(16, )](x, x, out, x.numel(), BLOCK=256)
    run = compiled.run
    args = (16, 1, 1, None, compiled.function, compiled.packed_metadata, None, None, None, x, x, out, x.numel(), 256)
    for _ in range(100):
        run(*args)
    _heap_bytes_in_use()
    before = _heap_bytes_in_use()
    for _ in range(10_000):
        run(*args)
    after = _heap_bytes_in_use()
    # Anything a launch kept would be at least a malloc chunk (16+ bytes) per launch: 160 KB here. Less than a
    # byte per launch is the interpreter and torch's own bookkeeping (a few hundred bytes now and then).
    assert after - before < 10_000, f"{after - before} bytes more in use after 10,000 launches"
