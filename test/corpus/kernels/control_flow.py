"""Control flow: scf.for (plain, tl.range options, static_range), scf.if, scf.while, early return,
noinline calls (tt.call) and inlined helpers."""
import triton
import triton.language as tl


@triton.jit
def for_accumulate(x, out, n_iters, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    total = 0
    for i in range(n_iters):
        acc += tl.load(x + i * BLOCK + offs)
        total += i
    tl.store(out + offs, acc + total)


@triton.jit
def for_step_bounds(x, out, lo, hi, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(lo, hi, 3):
        acc = acc * 0.5 + tl.load(x + i + offs)
    for j in range(hi, lo, -2):  # negative step
        acc += j
    tl.store(out + offs, acc)


@triton.jit
def range_options(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(0, n, num_stages=2):
        acc += tl.load(x + i * BLOCK + offs)
    for i in tl.range(0, n, loop_unroll_factor=2):
        acc *= 1.01
    for i in tl.range(0, n, disallow_acc_multi_buffer=True, flatten=True):
        for j in range(0, 4):
            acc += tl.load(x + (i * 4 + j) * BLOCK + offs)
    for i in tl.range(0, n, warp_specialize=True):
        acc -= 1.0
    for i in tl.range(0, n, disable_licm=True):
        acc += 2.0
    tl.store(out + offs, acc)


@triton.jit
def static_unroll(x, out, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.load(x + offs)
    for i in tl.static_range(STEPS):
        acc = acc * (i + 1) + tl.load(x + (i + 1) * BLOCK + offs)
    tl.store(out + offs, acc)


@triton.jit
def if_else_scalar(x, out, flag, threshold, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    if flag > 0:
        v = v * 2.0
    else:
        v = v - 1.0
    if threshold > 10:
        if threshold > 100:
            v = v + 100.0
        v = tl.sqrt(tl.abs(v))
    tl.store(out + offs, v)


@triton.jit
def if_in_loop(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(n):
        v = tl.load(x + i * BLOCK + offs)
        if i % 2 == 0:
            acc += v
        else:
            acc -= v
    tl.store(out + offs, acc)


@triton.jit
def while_loop(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = 0
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    while i < n:
        acc += tl.load(x + i * BLOCK + offs)
        i += 1 + i // 4
    tl.store(out + offs, acc)


@triton.jit
def while_data_dependent(x, out, limit):
    # loop condition depends on loaded data
    total = 0.0
    k = 0
    while total < limit:
        total += tl.load(x + k)
        k += 1
    tl.store(out, total)
    tl.store(out + 1, k.to(tl.float32))


@triton.jit
def early_return(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)


@triton.jit
def nested_loops(x, out, M, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(M):
        row = tl.zeros([BLOCK], dtype=tl.float32)
        for j in range(N):
            row += tl.load(x + (i * N + j) * BLOCK + offs)
        acc += row * i
    tl.store(out + offs, acc)


@triton.jit(noinline=True)
def _row_norm(p, BLOCK: tl.constexpr):
    # noinline functions take scalars and pointers only
    v = tl.load(p + tl.arange(0, BLOCK))
    return tl.sqrt(tl.sum(v * v, axis=0))


@triton.jit(noinline=True)
def _scale_in_place(p, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, tl.load(p + offs) * scale)


@triton.jit(noinline=True)
def _order(a, b):
    return tl.minimum(a, b), tl.maximum(a, b)


@triton.jit
def _inlined_helper(v):
    return v * 3.0 + 1.0


@triton.jit
def noinline_calls(x, out, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    n = _row_norm(x, BLOCK)  # tt.call returning a scalar
    lo, hi = _order(n, scale)  # tt.call with two results
    tl.store(out + offs, _inlined_helper(tl.load(x + offs)) / hi)  # plain @jit helper: inlined by make_ttir
    _scale_in_place(out, lo, BLOCK)  # tt.call without results


@triton.jit
def loop_carried_tuple(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    lo = tl.full([BLOCK], float("inf"), tl.float32)
    hi = tl.full([BLOCK], float("-inf"), tl.float32)
    count = 0
    for i in range(n):
        v = tl.load(x + i * BLOCK + offs)
        lo = tl.minimum(lo, v)
        hi = tl.maximum(hi, v)
        count += 1
    tl.store(out + offs, (hi - lo) / count)


KERNELS = {
    "for_accumulate": ({"x": "*fp32", "out": "*fp32", "n_iters": "i32"}, {"BLOCK": 64}),
    "for_step_bounds": ({"x": "*fp32", "out": "*fp32", "lo": "i32", "hi": "i32"}, {"BLOCK": 64}),
    "range_options": ({"x": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 64}),
    "static_unroll": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64, "STEPS": 3}),
    "if_else_scalar": ({"x": "*fp32", "out": "*fp32", "flag": "i32", "threshold": "i32"}, {"BLOCK": 64}),
    "if_in_loop": ({"x": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 64}),
    "while_loop": ({"x": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 64}),
    "while_data_dependent": ({"x": "*fp32", "out": "*fp32", "limit": "fp32"}, {}),
    "early_return": ({"x": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 64}),
    "nested_loops": ({"x": "*fp32", "out": "*fp32", "M": "i32", "N": "i32"}, {"BLOCK": 64}),
    "noinline_calls": ({"x": "*fp32", "out": "*fp32", "scale": "fp32"}, {"BLOCK": 64}),
    "loop_carried_tuple": ({"x": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 64}),
}
