"""Scans: tt.scan through cumsum/cumprod and tl.associative_scan (custom combiner, tuples, reverse)."""
import triton
import triton.language as tl


@triton.jit
def cumsum_1d(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + tl.arange(0, BLOCK), tl.cumsum(v, axis=0))


@triton.jit
def cumsum_2d_axes(x, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    t = tl.load(x + offs)
    tl.store(out + offs, tl.cumsum(t, axis=1))
    tl.store(out + M * N + offs, tl.cumsum(t, axis=0))


@triton.jit
def cumsum_int_reverse(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))  # i32
    tl.store(out + tl.arange(0, BLOCK), tl.cumsum(v, axis=0, reverse=True))


@triton.jit
def cumprod_1d(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + tl.arange(0, BLOCK), tl.cumprod(v, axis=0))


@triton.jit
def _running_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def custom_scan_max(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + tl.arange(0, BLOCK), tl.associative_scan(v, 0, _running_max))
    tl.store(out + BLOCK + tl.arange(0, BLOCK), tl.associative_scan(v, 0, _running_max, reverse=True))


@triton.jit
def _affine_compose(a1, b1, a2, b2):
    # x -> a*x + b; composition of two affine maps (a linear recurrence)
    return a2 * a1, a2 * b1 + b2


@triton.jit
def linear_recurrence_scan(a_ptr, b_ptr, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    _, h = tl.associative_scan((a, b), 1, _affine_compose)
    tl.store(out + offs, h)


KERNELS = {
    "cumsum_1d": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "cumsum_2d_axes": ({"x": "*fp32", "out": "*fp32"}, {"M": 16, "N": 32}),
    "cumsum_int_reverse": ({"x": "*i32", "out": "*i32"}, {"BLOCK": 128}),
    "cumprod_1d": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "custom_scan_max": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "linear_recurrence_scan": ({"a_ptr": "*fp32", "b_ptr": "*fp32", "out": "*fp32"}, {"M": 8, "N": 64}),
}
