"""Loads read where they are stored (stream-loads-into-stores): each kernel here has loads that
are streamed into their stores' loops and some that are not, and must give the same results as
torch whichever path a load takes."""

import re

import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def scaled_row_update_kernel(x_ptr, g_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    """out = g[r] * (x - mean(x[r])) + g[n_rows + r] / n_cols: the backward of var_mean as Inductor
    writes it. x feeds a sum (kept in a buffer); g is streamed through a division and broadcasts."""
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask, other=0.0)
    mean = tl.sum(tl.where(mask, x, 0.0), 1)[:, None] / n_cols
    scale = tl.load(g_ptr + rows, rows < n_rows)
    shift = tl.load(g_ptr + n_rows + rows, rows < n_rows)
    tl.store(out_ptr + rows * n_cols + cols, scale * (x - mean) + shift / n_cols, mask)


def test_streamed_load_through_division_and_broadcast():
    x, g = torch.randn(8, 100), torch.randn(16)
    out = torch.empty_like(x)
    scaled_row_update_kernel[(2, )](x, g, out, 8, 100, BLOCK_R=4, BLOCK_C=128)
    expected = g[:8, None] * (x - x.mean(1, keepdim=True)) + g[8:, None] / 100
    torch.testing.assert_close(out, expected)


@triton.jit
def in_place_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask) * 2 + tl.load(y_ptr + offs, mask), mask)


def test_in_place_update():
    x, y = torch.randn(1000), torch.randn(1000)
    expected = x * 2 + y
    in_place_kernel[(4, )](x, y, 1000, BLOCK=256)
    torch.testing.assert_close(x, expected)


@triton.jit
def shift_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, offs < n - 1)
    tl.store(x_ptr + offs + 1, v, offs < n - 1)


def test_shift_within_one_buffer_reads_before_writing():
    x = torch.arange(16, dtype=torch.float32)
    expected = torch.cat([x[:1], x[:-1]])
    shift_kernel[(1, )](x, 16, BLOCK=16)
    torch.testing.assert_close(x, expected)


@triton.jit
def two_outputs_kernel(x_ptr, a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask)
    tl.store(a_ptr + offs, x + 1, mask)
    tl.store(b_ptr + offs, x * 3, mask)


def test_two_stores_of_one_load_aliasing_the_input():
    """The first store writes over the input (a is x): the second store must see the loaded values."""
    x, b = torch.randn(300), torch.empty(300)
    expected_a, expected_b = x + 1, x * 3
    two_outputs_kernel[(2, )](x, x, b, 300, BLOCK=256)
    torch.testing.assert_close(x, expected_a)
    torch.testing.assert_close(b, expected_b)


@triton.jit
def gather_kernel(idx_ptr, table_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask, other=0)
    tl.store(out_ptr + offs, tl.load(table_ptr + idx, mask) * 2, mask)


def test_gather_through_a_streamed_index_load():
    table = torch.randn(50)
    idx = torch.randint(0, 50, (200, ), dtype=torch.int32)
    out = torch.empty(200)
    gather_kernel[(4, )](idx, table, out, 200, BLOCK=64)
    torch.testing.assert_close(out, table[idx.long()] * 2)


@triton.jit
def convert_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, (tl.load(x_ptr + offs, mask, other=1.0) * 2).to(out_ptr.dtype.element_ty), mask)


@pytest.mark.parametrize("src,dst", [(torch.float32, torch.bfloat16), (torch.bfloat16, torch.float32),
                                     (torch.bfloat16, torch.bfloat16), (torch.float16, torch.bfloat16)])
def test_16_bit_floats_through_memory(src, dst):
    """bf16 travels through memory as 16-bit integers (masked vector loads and stores); values,
    subnormals and the masked tail stay exact."""
    x = torch.cat([torch.randn(997), torch.tensor([1e-40, -1e-40, 3e38])]).to(src)
    out = torch.full((1000, ), 7.0, dtype=dst)
    convert_kernel[(4, )](x, out, 999, BLOCK=256)
    expected = (x[:999].float() * 2).to(dst) if src != torch.bfloat16 else (x[:999] * 2).to(dst)
    assert torch.equal(out[:999].view(torch.int16) if dst != torch.float32 else out[:999],
                       expected.view(torch.int16) if dst != torch.float32 else expected)
    assert out[999].item() == 7.0


@triton.jit
def reduce_rows_kernel(x_ptr, y_ptr, out_ptr, n_rows, n_cols, OP: tl.constexpr, AXIS: tl.constexpr,
                       BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    """Reductions that fold the loaded elements one by one (the loads are read inside the loop)."""
    rows = tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    if OP == "sum":
        r = tl.sum(tl.load(x_ptr + rows * n_cols + cols, mask, other=0), AXIS)
    elif OP == "max":
        r = tl.max(tl.load(x_ptr + rows * n_cols + cols, mask, other=-float("inf")), AXIS)
    elif OP == "min":
        r = tl.min(tl.load(x_ptr + rows * n_cols + cols, mask, other=2**31 - 1), AXIS)
    else:  # dot of two loaded rows
        r = tl.sum(tl.load(x_ptr + rows * n_cols + cols, mask, other=0) *
                   tl.load(y_ptr + rows * n_cols + cols, mask, other=0), AXIS)
    if AXIS == 1:
        tl.store(out_ptr + tl.arange(0, BLOCK_R), r, tl.arange(0, BLOCK_R) < n_rows)
    else:
        tl.store(out_ptr + tl.arange(0, BLOCK_C), r, tl.arange(0, BLOCK_C) < n_cols)


@pytest.mark.parametrize("op,dtype,axis", [
    *[(op, dtype, axis) for axis in (0, 1) for op, dtype in (("sum", torch.float32), ("max", torch.float32),
                                                              ("min", torch.int32), ("dot", torch.float32),
                                                              ("max", torch.float16))],
    ("sum", torch.bfloat16, 0),
    ("sum", torch.bfloat16, 1),
])
def test_reductions_read_their_input_where_it_is_loaded(op, dtype, axis):
    n_rows, n_cols = 5, 300
    g = torch.Generator().manual_seed(3)
    if dtype.is_floating_point:
        x = torch.randn(n_rows, n_cols, generator=g).to(dtype)
        y = torch.randn(n_rows, n_cols, generator=g).to(dtype)
    else:
        x = torch.randint(-1000, 1000, (n_rows, n_cols), generator=g, dtype=dtype)
        y = x
    compiled = reduce_rows_kernel[(1, )](x, y, out := torch.empty(n_cols if axis == 0 else n_rows, dtype=dtype), n_rows,
                                         n_cols, OP=op, AXIS=axis, BLOCK_R=8, BLOCK_C=512)
    assert "scf.for" in compiled.asm["linalg"] and "linalg.reduce" not in compiled.asm["linalg"], \
        "the reduction should fold its loaded input element by element"
    xd, yd = x.double(), y.double()
    if op == "sum":
        expected = xd.sum(axis)
    elif op == "max":
        expected = xd.amax(axis)
    elif op == "min":
        expected = xd.amin(axis)
    else:
        expected = (xd * yd).sum(axis)
    tol = {torch.float32: 1e-5, torch.bfloat16: 2e-2, torch.float16: 0, torch.int32: 0}[dtype]
    torch.testing.assert_close(out.double(), expected.to(dtype).double(), rtol=tol, atol=tol * 10, equal_nan=True)


@triton.jit
def silu_backward_kernel(in_out_ptr, x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Inductor's silu backward: two stores written in one loop, one of them in place, a costly
    sigmoid that two ops of one store use, and libdevice's exp beside tl.sigmoid's."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask)
    x = tl.load(x_ptr + offs, mask)
    up = tl.load(in_out_ptr + offs, mask)
    silu = x / (libdevice.exp(-x) + 1.0)
    sig = tl.sigmoid(x)
    tl.store(out_ptr + offs, g * silu, mask)
    tl.store(in_out_ptr + offs, g * up * sig * (x * (1.0 - sig) + 1.0), mask)


def test_two_stores_in_one_loop_one_in_place():
    x, g, up = torch.randn(1000) * 4, torch.randn(1000), torch.randn(1000)
    out = torch.empty(1000)
    sig = torch.sigmoid(x)
    expected_up, expected_out = g * up * sig * (x * (1 - sig) + 1), g * x * sig
    compiled = silu_backward_kernel[(4, )](up, x, g, out, 1000, BLOCK=256)
    assert "memref.alloc" not in compiled.asm["linalg"]  # every load read in the stores' loop
    torch.testing.assert_close(out, expected_out)
    torch.testing.assert_close(up, expected_up)


@triton.jit
def adamw_kernel(param_ptr, grad_ptr, avg_ptr, avg_sq_ptr, step_ptr, n, lr, BLOCK: tl.constexpr):
    """An AdamW step as Inductor writes it: four loads, three stores written in one loop, the
    bias corrections from a loaded scalar (libdevice's pow) and tl.sqrt_rn."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(param_ptr + offs, mask)
    g = tl.load(grad_ptr + offs, mask)
    m = tl.load(avg_ptr + offs, mask)
    v = tl.load(avg_sq_ptr + offs, mask)
    step = tl.where(mask, tl.broadcast_to(tl.load(step_ptr), [BLOCK]), 0.0)
    m = m + 0.1 * (g - m)
    v = v * 0.999 + 0.001 * g * g
    correction1 = 1.0 - libdevice.pow(0.9, step)
    correction2 = tl.sqrt_rn(1.0 - libdevice.pow(0.999, step))
    p = p * (1.0 - lr * 0.01) - (lr / correction1) * m / (tl.sqrt_rn(v) / correction2 + 1e-8)
    tl.store(avg_ptr + offs, m, mask)
    tl.store(param_ptr + offs, p, mask)
    tl.store(avg_sq_ptr + offs, v, mask)


def test_adamw_step_stores_in_one_loop():
    n = 3000
    p, g, m, v = torch.randn(n), torch.randn(n), torch.randn(n), torch.rand(n)
    step = torch.tensor([3.0])
    em = m + 0.1 * (g - m)
    ev = v * 0.999 + 0.001 * g * g
    c1, c2 = 1 - 0.9**3, (1 - 0.999**3)**0.5
    ep = p * (1 - 1e-3 * 0.01) - (1e-3 / c1) * em / (ev.sqrt() / c2 + 1e-8)
    adamw_kernel[(triton.cdiv(n, 1024), )](p, g, m, v, step, n, 1e-3, BLOCK=1024)
    torch.testing.assert_close(m, em)
    torch.testing.assert_close(v, ev)
    torch.testing.assert_close(p, ep)


@triton.jit
def same_tile_twice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Two stores of one loop into the same elements: the second one's values remain."""
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask)
    tl.store(out_ptr + offs, x + 1, mask)
    tl.store(x_ptr + offs, x * 2, mask)
    tl.store(out_ptr + offs, x * 3, offs < n // 2)


def test_later_store_of_one_loop_wins():
    x, out = torch.randn(64), torch.empty(64)
    expected_out = torch.cat([x[:32] * 3, x[32:] + 1])
    expected_x = x * 2
    same_tile_twice_kernel[(1, )](x, out, 64, BLOCK=64)
    torch.testing.assert_close(out, expected_out)
    torch.testing.assert_close(x, expected_x)


@triton.jit
def adamw_through_other_arguments_kernel(p_in, g_ptr, m_in, v_in, step_ptr, m_out, p_out, v_out, n, lr,
                                         BLOCK: tl.constexpr):
    """Inductor's foreach AdamW: each updated tensor is loaded through one argument and stored
    through another that is the same tensor (the loop's iterations are independent)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    p = tl.load(p_in + offs)
    g = tl.load(g_ptr + offs)
    m = tl.load(m_in + offs)
    v = tl.load(v_in + offs)
    step = tl.broadcast_to(tl.load(step_ptr), [BLOCK])
    m = m + 0.1 * (g - m)
    v = v * 0.999 + 0.001 * g * g
    correction1 = 1.0 - libdevice.pow(0.9, step)
    correction2 = tl.sqrt_rn(1.0 - libdevice.pow(0.999, step))
    p = p * (1.0 - lr * 0.01) - (lr / correction1) * m / (tl.sqrt_rn(v) / correction2 + 1e-8)
    tl.store(m_out + offs, m)
    tl.store(p_out + offs, p)
    tl.store(v_out + offs, v)


@pytest.mark.parametrize("in_place", [True, False])
def test_adamw_through_other_arguments(in_place):
    n = 4096
    p, g, m, v = torch.randn(n), torch.randn(n), torch.randn(n), torch.rand(n)
    em = m + 0.1 * (g - m)
    ev = v * 0.999 + 0.001 * g * g
    c1, c2 = 1 - 0.9**3, (1 - 0.999**3)**0.5
    ep = p * (1 - 1e-3 * 0.01) - (1e-3 / c1) * em / (ev.sqrt() / c2 + 1e-8)
    outs = (m, p, v) if in_place else (torch.empty(n), torch.empty(n), torch.empty(n))
    compiled = adamw_through_other_arguments_kernel[(n // 1024, )](p, g, m, v, torch.tensor([3.0]), *outs, n, 1e-3,
                                                                   BLOCK=1024)
    assert "llvm.loop.parallel_accesses" in compiled.asm["llir"]
    for out, expected in zip(outs, (em, ep, ev)):
        torch.testing.assert_close(out, expected)


@triton.jit
def gelu_layer_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_rows, N: tl.constexpr, BLOCK_R: tl.constexpr):
    # Inductor's GELU (erf) + layer norm: the GELU feeds the mean's sum, the variance's sum and the store.
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, N)[None, :]
    mask = rows < n_rows
    x = tl.load(x_ptr + rows * N + cols, mask, other=0.0)
    g = x * 0.5 * (libdevice.erf(x * 0.7071067811865476) + 1.0)
    mean = tl.sum(tl.where(mask, g, 0.0), 1)[:, None] / N
    centered = g - mean
    var = tl.sum(tl.where(mask, centered * centered, 0.0), 1)[:, None] / N
    y = centered * libdevice.rsqrt(var + 1e-5) * tl.load(w_ptr + cols) + tl.load(b_ptr + cols)
    tl.store(out_ptr + rows * N + cols, y, mask)


@pytest.mark.parametrize("block_r", [1, 8])
def test_costly_value_of_several_loops_is_computed_once(block_r):
    """The erf that both sums and the store need is computed once into a tile (one math.erf in the linalg
    stage, where each loop streaming x would compute its own), with the same results."""
    rows, n = 37, 512
    x, w, b = torch.randn(rows, n), torch.randn(n), torch.randn(n)
    out = torch.empty_like(x)
    compiled = gelu_layer_norm_kernel[(triton.cdiv(rows, block_r), )](x, w, b, out, rows, N=n, BLOCK_R=block_r)
    expected = torch.nn.functional.layer_norm(torch.nn.functional.gelu(x), (n, ), w, b)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)
    linalg = compiled.asm["linalg"]
    assert linalg.count("math.erf") == 1
    # The store reads the centred GELU, which the variance's sum needs in memory anyway, instead of computing it
    # again from x and the erf tile: one element read per store, and the erf tile's only consumer is the GELU.
    assert len(re.findall(rf"tensor\.extract %\w+\[.*\] : tensor<{block_r}x{n}xf32>", linalg)) == 1


@triton.jit
def gelu_layer_norm_backward_kernel(grad_ptr, w_ptr, x_ptr, mean_ptr, rstd_ptr, out_ptr, n_rows, N: tl.constexpr,
                                    XBLOCK: tl.constexpr):
    # Inductor's fused GELU + layer norm backward (as it writes it for an MLP): the row statistics are loaded
    # [XBLOCK, 1] and broadcast, and the normalized GELU `(g - mean) * rstd` feeds a sum and the store.
    rows = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    mask = rows < n_rows
    cols = tl.arange(0, N)[None, :]
    dy = tl.load(grad_ptr + (cols + N * rows), mask, other=0.0) * tl.load(w_ptr + cols)
    x = tl.load(x_ptr + (cols + N * rows), mask, other=0.0)
    mean = tl.load(mean_ptr + rows, mask)
    rstd = tl.load(rstd_ptr + rows, mask)
    sum_dy = tl.sum(tl.where(mask, dy, 0), 1)[:, None]
    cdf = libdevice.erf(x * 0.7071067811865476) + 1.0
    normalized = (x * 0.5 * cdf - mean) * rstd
    sum_dy_xhat = tl.sum(tl.where(mask, dy * normalized, 0), 1)[:, None]
    dg = rstd / N * (dy * N - sum_dy - normalized * sum_dy_xhat)
    dx = dg * (cdf * 0.5 + x * (tl.exp(x * x * -0.5) * 0.3989422804014327))
    tl.store(out_ptr + (cols + N * rows), dx, mask)


@pytest.mark.parametrize("xblock", [1, 8])
def test_value_over_streamed_row_statistics_is_computed_where_used(xblock):
    """`normalized` reaches a sum and the store and sits on an erf, but the row statistics below it are loads
    streamed through broadcasts (no tile of them exists to compute it from): it is computed where used."""
    rows, n = 37, 128
    grad, w, x = torch.randn(rows, n), torch.randn(n), torch.randn(rows, n)
    mean, rstd = torch.randn(rows), torch.rand(rows) + 0.5
    out = torch.full_like(x, float("nan"))
    gelu_layer_norm_backward_kernel[(triton.cdiv(rows, xblock), )](grad, w, x, mean, rstd, out, rows, N=n,
                                                                   XBLOCK=xblock)
    dy = grad * w
    cdf = torch.erf(x * 0.7071067811865476) + 1.0
    normalized = (x * 0.5 * cdf - mean[:, None]) * rstd[:, None]
    dg = rstd[:, None] / n * (dy * n - dy.sum(1, keepdim=True) - normalized * (dy * normalized).sum(1, keepdim=True))
    expected = dg * (cdf * 0.5 + x * torch.exp(x * x * -0.5) * 0.3989422804014327)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)


@triton.jit
def one_load_three_accumulators_kernel(x_ptr, flags_ptr, max_ptr, sum_ptr, n_cols, RBLOCK: tl.constexpr):
    # One loaded tile feeds three loop-carried tiles (as Inductor's softmax checks for values that
    # are not finite while it takes the max): the loop's yield hands on all three.
    row = tl.program_id(0)
    cols = tl.arange(0, RBLOCK)[None, :]
    flags = tl.full([1, RBLOCK], False, tl.int1)
    biggest = tl.full([1, RBLOCK], float("-inf"), tl.float32)
    total = tl.zeros([1, RBLOCK], tl.float32)
    for start in tl.range(0, n_cols, RBLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * n_cols + start + cols, mask, other=0.0)
        flags = tl.where(mask, flags | (x != x), flags)
        biggest = tl.where(mask, tl.maximum(biggest, x), biggest)
        total = tl.where(mask, total + x, total)
    tl.store(flags_ptr + row + tl.zeros([1], tl.int32), tl.max(flags.to(tl.int32), 1))
    tl.store(max_ptr + row + tl.zeros([1], tl.int32), tl.max(biggest, 1))
    tl.store(sum_ptr + row + tl.zeros([1], tl.int32), tl.sum(total, 1))


@pytest.mark.parametrize("n_cols", [4096, 1000])
def test_one_load_feeding_several_loop_carried_tiles(n_cols):
    """Each loop-carried tile the load feeds is updated element by element (the max was left
    reading an empty tile once the first of them was: -inf for every row)."""
    x = torch.randn(6, n_cols)
    x[2, 5] = float("nan")
    flags, biggest, total = torch.empty(6, dtype=torch.int32), torch.empty(6), torch.empty(6)
    one_load_three_accumulators_kernel[(6, )](x, flags, biggest, total, n_cols, RBLOCK=512)
    torch.testing.assert_close(flags, torch.isnan(x).any(1).to(torch.int32))
    clean = [0, 1, 3, 4, 5]
    torch.testing.assert_close(biggest[clean], x[clean].max(1).values)
    torch.testing.assert_close(total[clean], x[clean].sum(1), rtol=1e-4, atol=1e-3)
