"""Reductions: tt.reduce with builtin and custom combiners, argmin/argmax, tuple reductions."""
import triton
import triton.language as tl


@triton.jit
def sum_axes(x, out, M: tl.constexpr, N: tl.constexpr):
    t = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    rows = tl.sum(t, axis=1)  # [M]
    cols = tl.sum(t, axis=0, keep_dims=True)  # [1, N]
    total = tl.sum(t)  # all axes -> scalar
    tl.store(out + tl.arange(0, M), rows)
    tl.store(out + M + tl.arange(0, N)[None, :], cols)
    tl.store(out + M + N, total)


@triton.jit
def max_min_float(x, out, M: tl.constexpr, N: tl.constexpr):
    t = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(out + tl.arange(0, M), tl.max(t, axis=1))
    tl.store(out + M + tl.arange(0, N), tl.min(t, axis=0))


@triton.jit
def max_min_int(x, y, out, BLOCK: tl.constexpr):
    a = tl.load(x + tl.arange(0, BLOCK))  # i32
    b = tl.load(y + tl.arange(0, BLOCK))  # u32
    tl.store(out + 0, tl.max(a, axis=0))
    tl.store(out + 1, tl.min(a, axis=0))
    tl.store(out + 2, tl.max(b, axis=0).to(tl.int32))
    tl.store(out + 3, tl.min(b, axis=0).to(tl.int32))
    tl.store(out + 4, tl.sum(a, axis=0))


@triton.jit
def argmax_argmin(x, idx_out, val_out, M: tl.constexpr, N: tl.constexpr):
    t = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    i_max = tl.argmax(t, axis=1)
    i_min = tl.argmin(t, axis=1, tie_break_left=False)
    v, i = tl.max(t, axis=0, return_indices=True)
    tl.store(idx_out + tl.arange(0, M), i_max)
    tl.store(idx_out + M + tl.arange(0, M), i_min)
    tl.store(idx_out + 2 * M + tl.arange(0, N), i)
    tl.store(val_out + tl.arange(0, N), v)


@triton.jit
def _pick_larger_abs(a_val, a_idx, b_val, b_idx):
    take_a = (tl.abs(a_val) > tl.abs(b_val)) | ((tl.abs(a_val) == tl.abs(b_val)) & (a_idx < b_idx))
    return tl.where(take_a, a_val, b_val), tl.where(take_a, a_idx, b_idx)


@triton.jit
def custom_tuple_reduce(x, out_val, out_idx, M: tl.constexpr, N: tl.constexpr):
    t = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    idx = tl.broadcast_to(tl.arange(0, N)[None, :], [M, N])
    v, i = tl.reduce((t, idx), 1, _pick_larger_abs)
    tl.store(out_val + tl.arange(0, M), v)
    tl.store(out_idx + tl.arange(0, M), i)


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def custom_product_reduce(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out, tl.reduce(v, 0, _mul_combine))


@triton.jit
def bitwise_reductions(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + 0, tl.xor_sum(v, axis=0))
    tl.store(out + 1, tl.reduce_or(v, axis=0))


@triton.jit
def half_precision_sum(x, out, M: tl.constexpr, N: tl.constexpr):
    t = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])  # fp16
    tl.store(out + tl.arange(0, M), tl.sum(t, axis=1))  # accumulates in fp32
    tl.store(out + M + tl.arange(0, M), tl.sum(t, axis=1, dtype=tl.float16).to(tl.float32))


@triton.jit
def reduce_3d_middle(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ia = tl.arange(0, A)[:, None, None]
    ib = tl.arange(0, B)[None, :, None]
    ic = tl.arange(0, C)[None, None, :]
    t = tl.load(x + ia * B * C + ib * C + ic)
    r = tl.sum(t, axis=1)  # [A, C]
    tl.store(out + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], r)


@triton.jit
def row_softmax(x, out, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(out + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


KERNELS = {
    "sum_axes": ({"x": "*fp32", "out": "*fp32"}, {"M": 16, "N": 32}),
    "max_min_float": ({"x": "*fp32", "out": "*fp32"}, {"M": 16, "N": 32}),
    "max_min_int": ({"x": "*i32", "y": "*u32", "out": "*i32"}, {"BLOCK": 128}),
    "argmax_argmin": ({"x": "*fp32", "idx_out": "*i32", "val_out": "*fp32"}, {"M": 16, "N": 32}),
    "custom_tuple_reduce": ({"x": "*fp32", "out_val": "*fp32", "out_idx": "*i32"}, {"M": 16, "N": 32}),
    "custom_product_reduce": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "bitwise_reductions": ({"x": "*i32", "out": "*i32"}, {"BLOCK": 64}),
    "half_precision_sum": ({"x": "*fp16", "out": "*fp32"}, {"M": 16, "N": 64}),
    "reduce_3d_middle": ({"x": "*fp32", "out": "*fp32"}, {"A": 4, "B": 8, "C": 16}),
    "row_softmax": ({"x": "*fp32", "out": "*fp32", "n_cols": "i32", "stride": "i32"}, {"BLOCK": 256}),
}
