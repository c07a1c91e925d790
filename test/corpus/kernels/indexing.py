"""Data-dependent indexing and sorting: tl.gather, tl.histogram, tl.sort, tl.topk, tl.flip."""
import triton
import triton.language as tl


@triton.jit
def gather_rows(src, idx, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    t = tl.load(src + offs)
    i = tl.load(idx + offs)  # i32 column indices
    tl.store(out + offs, tl.gather(t, i, axis=1))


@triton.jit
def gather_1d(src, idx, out, BLOCK: tl.constexpr):
    t = tl.load(src + tl.arange(0, BLOCK))
    i = tl.load(idx + tl.arange(0, BLOCK // 2))
    tl.store(out + tl.arange(0, BLOCK // 2), t.gather(i, 0))


@triton.jit
def histogram(x, out, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    h = tl.histogram(v, BINS)
    hm = tl.histogram(v, BINS, mask=offs < n)
    tl.store(out + tl.arange(0, BINS), h)
    tl.store(out + BINS + tl.arange(0, BINS), hm)


@triton.jit
def sort_1d(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + tl.arange(0, BLOCK), tl.sort(v))
    tl.store(out + BLOCK + tl.arange(0, BLOCK), tl.sort(v, descending=True))


@triton.jit
def sort_rows_int(x, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out + offs, tl.sort(tl.load(x + offs), dim=1))


@triton.jit
def topk(x, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    t = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    best = tl.topk(t, K)
    tl.store(out + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], best)


@triton.jit
def flip(x, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    t = tl.load(x + offs)
    tl.store(out + offs, tl.flip(t, 1))
    tl.store(out + M * N + offs, t.flip(0))


KERNELS = {
    "gather_rows": ({"src": "*fp32", "idx": "*i32", "out": "*fp32"}, {"M": 16, "N": 32}),
    "gather_1d": ({"src": "*fp32", "idx": "*i32", "out": "*fp32"}, {"BLOCK": 64}),
    "histogram": ({"x": "*i32", "out": "*i32", "n": "i32"}, {"BLOCK": 128, "BINS": 16}),
    "sort_1d": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 16}),
    "sort_rows_int": ({"x": "*i32", "out": "*i32"}, {"M": 4, "N": 16}),
    "topk": ({"x": "*fp32", "out": "*fp32"}, {"M": 4, "N": 16, "K": 4}),
    "flip": ({"x": "*fp32", "out": "*fp32"}, {"M": 8, "N": 16}),
}
