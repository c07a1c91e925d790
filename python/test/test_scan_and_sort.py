"""Scans, custom reductions, argmin/argmax, sort, topk and flip on 2-D blocks, against numpy.

Semantics taken from triton/language/standard.py and core.py (3.9):
- tl.cumsum / tl.cumprod promote integers narrower than 32 bits to int32 (uint32 if unsigned);
  floating-point types scan in their own type.
- tl.max / tl.min reduce with tl.maximum / tl.minimum, whose default is PropagateNan.NONE
  (arith.maxnumf / minnumf): a NaN is ignored unless every element is NaN. torch.max / torch.min
  propagate NaN instead; tl.maximum(..., propagate_nan=tl.PropagateNan.ALL) does too. Floating-point
  inputs narrower than 32 bits are reduced in float32 (integers in int32).
- argmax / argmin (tl.max(..., return_indices=True)) break ties towards the lowest index.
- tl.sort / tl.topk only work along the last dimension (a static_assert in sort_impl); sorting
  along another axis is done by transposing first.
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

ALL_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
              torch.int64, torch.uint8, torch.uint32]
FLOAT_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16]




def _ids(dtypes):
    return [str(d).replace("torch.", "") for d in dtypes]


def to_numpy(t):
    """A numpy copy; bfloat16 goes through float32 (exact), bool stays bool."""
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    return t.numpy().copy()


def small_values(shape, dtype, low=-8, high=8):
    """Integers in [low, high): exact in every dtype, so float scans can be compared exactly."""
    shape = (shape, ) if isinstance(shape, int) else tuple(shape)
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype in (torch.uint8, torch.uint32):
        low = max(low, 0)
    return torch.randint(low, high, shape).to(dtype)


def product_values(shape, dtype):
    """Factors whose running products stay exact: {-1, 1, 2, 0.5} for floats, {-1, 1, 2, 3} for ints."""
    if dtype.is_floating_point:
        choices = torch.tensor([-1.0, 1.0, 2.0, 0.5])
    elif dtype in (torch.uint8, torch.uint32):
        choices = torch.tensor([1, 2, 3])
    else:
        choices = torch.tensor([-1, 1, 2, 3])
    return choices[torch.randint(0, len(choices), shape)].to(dtype)


def scan_result_dtype(dtype):
    """The dtype tl.cumsum / tl.cumprod return for an input of `dtype`."""
    if dtype in (torch.bool, torch.int8, torch.int16):
        return torch.int32
    if dtype == torch.uint8:
        return torch.uint32
    return dtype


def np_scan(x, axis, reverse, op, out_dtype):
    """Sequential inclusive scan in numpy, wrapping like the fixed-width result type."""
    np_out = {torch.int32: np.int32, torch.uint32: np.uint32, torch.int64: np.int64, torch.uint64: np.uint64}
    if out_dtype in np_out:
        x = x.astype(np_out[out_dtype])  # integer arithmetic wraps modulo 2**bits
    else:
        x = x.astype(np.float64)
    if reverse:
        x = np.flip(x, axis)
    with np.errstate(over="ignore"):
        y = np.cumsum(x, axis=axis, dtype=x.dtype) if op == "sum" else np.cumprod(x, axis=axis, dtype=x.dtype)
    if reverse:
        y = np.flip(y, axis)
    return np.ascontiguousarray(y)


def as_torch(a, dtype):
    if dtype == torch.bfloat16:
        return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32)).to(dtype)
    return torch.from_numpy(np.ascontiguousarray(a)).to(dtype)


# ---------------------------------------------------------------------------------------------
# tl.cumsum / tl.cumprod
# ---------------------------------------------------------------------------------------------


@triton.jit
def cum_kernel(x_ptr, out_ptr, M, N, OP: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    if OP == "sum":
        x = tl.load(x_ptr + rows * N + cols, mask=mask, other=0)
        y = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    else:
        x = tl.load(x_ptr + rows * N + cols, mask=mask, other=1)
        y = tl.cumprod(x, axis=AXIS, reverse=REVERSE)
    tl.store(out_ptr + rows * N + cols, y, mask=mask)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("M,N", [(8, 16), (5, 13)])
@pytest.mark.parametrize("dtype", ALL_DTYPES + [torch.bool], ids=_ids(ALL_DTYPES + [torch.bool]))
def test_cumsum_2d(dtype, M, N, axis, reverse):
    x = small_values((M, N), dtype)
    out_dtype = scan_result_dtype(dtype)
    out = torch.empty((M, N), dtype=out_dtype)
    cum_kernel[(1, )](x, out, M, N, OP="sum", AXIS=axis, REVERSE=reverse, BLOCK_M=triton.next_power_of_2(M),
                      BLOCK_N=triton.next_power_of_2(N))
    expected = as_torch(np_scan(to_numpy(x), axis, reverse, "sum", out_dtype), out_dtype)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("M,N", [(8, 16), (5, 13)])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_ids(ALL_DTYPES))
def test_cumprod_2d(dtype, M, N, axis, reverse):
    x = product_values((M, N), dtype)
    out_dtype = scan_result_dtype(dtype)
    out = torch.empty((M, N), dtype=out_dtype)
    cum_kernel[(1, )](x, out, M, N, OP="prod", AXIS=axis, REVERSE=reverse, BLOCK_M=triton.next_power_of_2(M),
                      BLOCK_N=triton.next_power_of_2(N))
    expected = as_torch(np_scan(to_numpy(x), axis, reverse, "prod", out_dtype), out_dtype)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=_ids([torch.float32, torch.float64]))
def test_cumsum_random_floats_long_axis(dtype):
    x = torch.randn(4, 1024, dtype=dtype)
    out = torch.empty_like(x)
    cum_kernel[(1, )](x, out, 4, 1024, OP="sum", AXIS=1, REVERSE=False, BLOCK_M=4, BLOCK_N=1024)
    torch.testing.assert_close(out, x.cumsum(1), rtol=1e-4 if dtype == torch.float32 else 1e-10,
                               atol=1e-4 if dtype == torch.float32 else 1e-10)


@triton.jit
def cumsum_3d_kernel(x_ptr, out_ptr, AXIS: tl.constexpr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=AXIS))


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32], ids=_ids([torch.float32, torch.int32]))
def test_cumsum_3d_each_axis(dtype, axis):
    x = small_values((2, 4, 8), dtype)  # axis 0 has length 2, axis 1 length 4
    out = torch.empty_like(x)
    cumsum_3d_kernel[(1, )](x, out, AXIS=axis, A=2, B=4, C=8)
    assert torch.equal(out, x.cumsum(axis).to(dtype))


def test_cumsum_int32_wraps_around():
    x = torch.full((1, 16), 2**30, dtype=torch.int32)
    out = torch.empty_like(x)
    cum_kernel[(1, )](x, out, 1, 16, OP="sum", AXIS=1, REVERSE=False, BLOCK_M=1, BLOCK_N=16)
    expected = (torch.arange(1, 17, dtype=torch.int64) * 2**30).to(torch.int32)  # modulo 2**32
    assert out[0].tolist() == expected.tolist()


# ---------------------------------------------------------------------------------------------
# tl.associative_scan with user combine functions
# ---------------------------------------------------------------------------------------------


@triton.jit
def running_max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def linear_recurrence_combine(a1, b1, a2, b2):
    # (a1, b1) then (a2, b2): h -> a2 * (a1 * h + b1) + b2
    return a1 * a2, a2 * b1 + b2


@triton.jit
def running_argmax_combine(v1, i1, v2, i2):
    take_first = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(take_first, v1, v2), tl.where(take_first, i1, i2)


@triton.jit
def running_max_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
                       REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.associative_scan(x, AXIS, running_max_combine, reverse=REVERSE))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_ids(ALL_DTYPES))
def test_associative_scan_running_max(dtype, axis, reverse):
    if dtype.is_floating_point:
        x = torch.randn(8, 16).to(dtype)
    else:
        x = small_values((8, 16), dtype, -100, 100)
    out = torch.empty_like(x)
    running_max_kernel[(1, )](x, out, M=8, N=16, AXIS=axis, REVERSE=reverse)
    xn = to_numpy(x)
    if reverse:
        xn = np.flip(xn, axis)
    expected = np.maximum.accumulate(xn, axis=axis)
    if reverse:
        expected = np.flip(expected, axis)
    torch.testing.assert_close(out, as_torch(expected, dtype), rtol=0, atol=0)


@triton.jit
def linear_recurrence_kernel(a_ptr, b_ptr, ha_ptr, hb_ptr, M: tl.constexpr, N: tl.constexpr,
                             AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    ha, hb = tl.associative_scan((a, b), AXIS, linear_recurrence_combine, reverse=REVERSE)
    tl.store(ha_ptr + offs, ha)
    tl.store(hb_ptr + offs, hb)


def np_linear_recurrence(a, b, axis, reverse):
    """h_t = a_t * h_{t-1} + b_t with h_{-1} = 0, and the running product of a, computed sequentially."""
    a, b = np.moveaxis(a, axis, 0).copy(), np.moveaxis(b, axis, 0).copy()
    order = range(a.shape[0] - 1, -1, -1) if reverse else range(a.shape[0])
    pa, ph = np.empty_like(a), np.empty_like(b)
    run_a, run_h = None, None
    with np.errstate(over="ignore"):
        for t in order:
            run_a = a[t] if run_a is None else run_a * a[t]
            run_h = b[t] if run_h is None else a[t] * run_h + b[t]
            pa[t], ph[t] = run_a, run_h
    return np.moveaxis(pa, 0, axis), np.moveaxis(ph, 0, axis)


TUPLE_SCAN_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64]


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", TUPLE_SCAN_DTYPES, ids=_ids(TUPLE_SCAN_DTYPES))
def test_associative_scan_tuple_linear_recurrence(dtype, axis, reverse):
    a = product_values((8, 16), dtype)
    b = small_values((8, 16), dtype, -4, 4)
    ha, hb = torch.empty_like(a), torch.empty_like(b)
    linear_recurrence_kernel[(1, )](a, b, ha, hb, M=8, N=16, AXIS=axis, REVERSE=reverse)
    np_dtype = np.float64 if dtype.is_floating_point else np.int64
    ea, eb = np_linear_recurrence(to_numpy(a).astype(np_dtype), to_numpy(b).astype(np_dtype), axis, reverse)
    torch.testing.assert_close(ha, as_torch(ea, dtype), rtol=0, atol=0)
    if dtype in (torch.float16, torch.bfloat16):
        # The combiner is applied in a tree order, so h can round differently than the sequential loop.
        torch.testing.assert_close(hb.double(), torch.from_numpy(eb).double(), rtol=2e-2, atol=2e-2)
    else:
        torch.testing.assert_close(hb, as_torch(eb, dtype), rtol=0, atol=0)


@triton.jit
def running_argmax_kernel(x_ptr, val_ptr, idx_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    v, i = tl.associative_scan((x, offs), 0, running_argmax_combine)
    tl.store(val_ptr + offs, v)
    tl.store(idx_ptr + offs, i)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int8, torch.int64],
                         ids=_ids([torch.float32, torch.float16, torch.int8, torch.int64]))
def test_associative_scan_mixed_dtype_tuple_running_argmax(dtype):
    x = small_values(64, dtype, -5, 5)
    val, idx = torch.empty_like(x), torch.empty(64, dtype=torch.int32)
    running_argmax_kernel[(1, )](x, val, idx, N=64)
    xs = x.tolist()
    best, best_i, ev, ei = None, None, [], []
    for i, v in enumerate(xs):
        if best is None or v > best:
            best, best_i = v, i
        ev.append(best)
        ei.append(best_i)
    assert val.tolist() == ev
    assert idx.tolist() == ei


# ---------------------------------------------------------------------------------------------
# tl.reduce with user combine functions
# ---------------------------------------------------------------------------------------------


@triton.jit
def product_combine(a, b):
    return a * b


@triton.jit
def max_abs_combine(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def sum_and_count_combine(s1, c1, s2, c2):
    return s1 + s2, c1 + c2


@triton.jit
def custom_reduce_kernel(x_ptr, prod_ptr, maxabs_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    out = tl.arange(0, N) if AXIS == 0 else tl.arange(0, M)
    tl.store(prod_ptr + out, tl.reduce(x, AXIS, product_combine))
    tl.store(maxabs_ptr + out, tl.reduce(x, AXIS, max_abs_combine))


REDUCE_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
                 torch.int64]


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", REDUCE_DTYPES, ids=_ids(REDUCE_DTYPES))
def test_custom_reduce_product_and_max_abs(dtype, axis):
    x = product_values((4, 8), dtype)
    x[0, 0] = -3 if not dtype.is_floating_point else -0.5
    n_out = 8 if axis == 0 else 4
    prod, maxabs = torch.empty(n_out, dtype=dtype), torch.empty(n_out, dtype=dtype)
    custom_reduce_kernel[(1, )](x, prod, maxabs, M=4, N=8, AXIS=axis)
    xn = to_numpy(x).astype(np.float64 if dtype.is_floating_point else np.int64)
    torch.testing.assert_close(prod, as_torch(np.prod(xn, axis=axis), dtype), rtol=0, atol=0)
    torch.testing.assert_close(maxabs, as_torch(np.abs(xn).max(axis=axis), dtype), rtol=0, atol=0)


@triton.jit
def sum_and_count_kernel(x_ptr, sum_ptr, count_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         AXIS: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    x = tl.load(x_ptr + rows * N + cols, mask=mask, other=0)
    positive = mask & (x > 0)
    s, c = tl.reduce((tl.where(positive, x, 0), positive.to(tl.int32)), AXIS, sum_and_count_combine)
    if AXIS == 0:
        out = tl.arange(0, BLOCK_N)
        tl.store(sum_ptr + out, s, mask=out < N)
        tl.store(count_ptr + out, c, mask=out < N)
    else:
        out = tl.arange(0, BLOCK_M)
        tl.store(sum_ptr + out, s, mask=out < M)
        tl.store(count_ptr + out, c, mask=out < M)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", REDUCE_DTYPES, ids=_ids(REDUCE_DTYPES))
def test_tuple_reduce_sum_and_count_of_positives(dtype, axis):
    M, N = 6, 11
    x = small_values((M, N), dtype)
    n_out = N if axis == 0 else M
    s, c = torch.empty(n_out, dtype=dtype), torch.empty(n_out, dtype=torch.int32)
    sum_and_count_kernel[(1, )](x, s, c, M, N, BLOCK_M=8, BLOCK_N=16, AXIS=axis)
    xn = to_numpy(x).astype(np.float64 if dtype.is_floating_point else np.int64)
    torch.testing.assert_close(s, as_torch(np.where(xn > 0, xn, 0).sum(axis), dtype), rtol=0, atol=0)
    torch.testing.assert_close(c, torch.from_numpy((xn > 0).sum(axis).astype(np.int32)), rtol=0, atol=0)


# ---------------------------------------------------------------------------------------------
# argmin / argmax with ties
# ---------------------------------------------------------------------------------------------


@triton.jit
def arg_kernel(x_ptr, amax_ptr, amin_ptr, vmax_ptr, vmin_ptr, imax_ptr, imin_ptr, M, N, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    offs = rows * N + cols
    # Full blocks only: no `other` value could be neutral for both min and max.
    x = tl.load(x_ptr + offs)
    vmax, imax = tl.max(x, axis=AXIS, return_indices=True)
    vmin, imin = tl.min(x, axis=AXIS, return_indices=True)
    out = tl.arange(0, BLOCK_N) if AXIS == 0 else tl.arange(0, BLOCK_M)
    tl.store(amax_ptr + out, tl.argmax(x, axis=AXIS))
    tl.store(amin_ptr + out, tl.argmin(x, axis=AXIS))
    tl.store(vmax_ptr + out, vmax)
    tl.store(vmin_ptr + out, vmin)
    tl.store(imax_ptr + out, imax)
    tl.store(imin_ptr + out, imin)


ARG_DTYPES = ALL_DTYPES


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", ARG_DTYPES, ids=_ids(ARG_DTYPES))
def test_argmin_argmax_ties_pick_lowest_index(dtype, axis):
    M, N = 16, 32
    x = small_values((M, N), dtype, 0, 3)  # many ties
    n_out = N if axis == 0 else M
    amax, amin = torch.empty(n_out, dtype=torch.int32), torch.empty(n_out, dtype=torch.int32)
    vmax, vmin = torch.empty(n_out, dtype=dtype), torch.empty(n_out, dtype=dtype)
    imax, imin = torch.empty(n_out, dtype=torch.int32), torch.empty(n_out, dtype=torch.int32)
    arg_kernel[(1, )](x, amax, amin, vmax, vmin, imax, imin, M, N, BLOCK_M=M, BLOCK_N=N, AXIS=axis)
    xn = to_numpy(x)
    assert amax.tolist() == np.argmax(xn, axis=axis).tolist()  # numpy: first occurrence
    assert amin.tolist() == np.argmin(xn, axis=axis).tolist()
    assert imax.tolist() == amax.tolist() and imin.tolist() == amin.tolist()
    assert vmax.tolist() == as_torch(xn.max(axis=axis), dtype).tolist()
    assert vmin.tolist() == as_torch(xn.min(axis=axis), dtype).tolist()


def test_argmax_all_equal_row_is_index_zero_and_negative_values():
    x = torch.tensor([[-7.0] * 16, [-3.0] * 8 + [-1.0] * 8, [float("-inf")] * 15 + [-1e30]], dtype=torch.float32)
    x = torch.cat([x, torch.zeros(1, 16)], 0)
    amax, amin = torch.empty(4, dtype=torch.int32), torch.empty(4, dtype=torch.int32)
    vmax, vmin = torch.empty(4), torch.empty(4)
    imax, imin = torch.empty(4, dtype=torch.int32), torch.empty(4, dtype=torch.int32)
    arg_kernel[(1, )](x, amax, amin, vmax, vmin, imax, imin, 4, 16, BLOCK_M=4, BLOCK_N=16, AXIS=1)
    assert amax.tolist() == [0, 8, 15, 0]
    assert amin.tolist() == [0, 0, 0, 0]


# ---------------------------------------------------------------------------------------------
# tl.sort / tl.topk / tl.flip
# ---------------------------------------------------------------------------------------------


@triton.jit
def sort_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, DESCENDING: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    if AXIS == 1:
        y = tl.sort(x, descending=DESCENDING)
    else:
        # tl.sort only sorts the last dimension: transpose, sort, transpose back.
        y = tl.trans(tl.sort(tl.trans(x), descending=DESCENDING))
    tl.store(out_ptr + offs, y)


SORT_DTYPES = ALL_DTYPES


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", SORT_DTYPES, ids=_ids(SORT_DTYPES))
def test_sort_2d(dtype, axis, descending):
    M, N = 8, 32
    if dtype.is_floating_point:
        x = torch.randn(M, N).to(dtype)
        x[0, :4] = torch.tensor([0.0, -0.0, 3.0, 3.0]).to(dtype)
    elif dtype == torch.uint8:
        x = torch.randint(0, 256, (M, N)).to(dtype)
    elif dtype == torch.uint32:
        x = torch.randint(0, 2**32, (M, N), dtype=torch.int64).to(dtype)
    else:
        info = torch.iinfo(dtype)
        x = torch.randint(max(info.min, -2**40), min(info.max, 2**40), (M, N), dtype=torch.int64).to(dtype)
    out = torch.empty_like(x)
    sort_kernel[(1, )](x, out, M=M, N=N, AXIS=axis, DESCENDING=descending)
    expected = np.sort(to_numpy(x), axis=axis)
    if descending:
        expected = np.flip(expected, axis)
    torch.testing.assert_close(out, as_torch(expected, dtype), rtol=0, atol=0)


@triton.jit
def sort_dim0_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.sort(tl.load(x_ptr + offs), dim=0))


def test_sort_along_a_non_last_dim_is_rejected_by_triton():
    x = torch.randn(4, 8)
    with pytest.raises(triton.CompilationError) as info:
        sort_dim0_kernel[(1, )](x, torch.empty_like(x), M=4, N=8)
    chain, error = [], info.value
    while error is not None:
        chain.append(str(error))
        error = error.__cause__
    assert "only minor dimension is currently supported" in "\n".join(chain)


@triton.jit
def topk_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, DESCENDING: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    y = tl.topk(x, K, descending=DESCENDING)
    tl.store(out_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], y)


TOPK_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int32, torch.int64,
               torch.uint8]


@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize("K", [1, 4, 16])
@pytest.mark.parametrize("dtype", TOPK_DTYPES, ids=_ids(TOPK_DTYPES))
def test_topk(dtype, K, descending):
    M, N = 4, 64
    x = torch.randn(M, N).to(dtype) if dtype.is_floating_point else small_values((M, N), dtype, -120, 120)
    out = torch.empty(M, K, dtype=dtype)
    topk_kernel[(1, )](x, out, M=M, N=N, K=K, DESCENDING=descending)
    s = np.sort(to_numpy(x), axis=1)
    expected = np.flip(s, 1)[:, :K] if descending else s[:, :K]
    torch.testing.assert_close(out, as_torch(expected, dtype), rtol=0, atol=0)


@triton.jit
def flip_kernel(x_ptr, out0_ptr, out1_ptr, flat_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out0_ptr + offs, tl.flip(x, 0))
    tl.store(out1_ptr + offs, tl.flip(x, 1))
    row = tl.load(x_ptr + tl.arange(0, N))
    tl.store(flat_ptr + tl.arange(0, N), row.flip())


FLIP_DTYPES = ALL_DTYPES + [torch.bool]


@pytest.mark.parametrize("dtype", FLIP_DTYPES, ids=_ids(FLIP_DTYPES))
def test_flip(dtype):
    x = small_values((4, 16), dtype, -100, 100) if not dtype.is_floating_point else torch.randn(4, 16).to(dtype)
    out0, out1, flat = torch.empty_like(x), torch.empty_like(x), torch.empty(16, dtype=dtype)
    flip_kernel[(1, )](x, out0, out1, flat, M=4, N=16)
    xn = to_numpy(x)
    assert np.array_equal(to_numpy(out0), np.flip(xn, 0))
    assert np.array_equal(to_numpy(out1), np.flip(xn, 1))
    assert np.array_equal(to_numpy(flat), np.flip(xn[0], 0))


# ---------------------------------------------------------------------------------------------
# NaN in tl.max / tl.min
# ---------------------------------------------------------------------------------------------


@triton.jit
def max_propagate_nan_combine(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def min_propagate_nan_combine(a, b):
    return tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def nan_reduce_kernel(x_ptr, max_ptr, min_ptr, pmax_ptr, pmin_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    rows = tl.arange(0, M)
    tl.store(max_ptr + rows, tl.max(x, axis=1))
    tl.store(min_ptr + rows, tl.min(x, axis=1))
    tl.store(pmax_ptr + rows, tl.reduce(x, 1, max_propagate_nan_combine))
    tl.store(pmin_ptr + rows, tl.reduce(x, 1, min_propagate_nan_combine))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_max_min_nan_semantics(dtype):
    M, N = 4, 16
    x = torch.randn(M, N)
    x[0, 3] = float("nan")  # one NaN
    x[1, 0] = float("nan")  # NaN first
    x[1, 15] = float("nan")  # and last
    x[2, :] = float("nan")  # all NaN
    x = x.to(dtype)  # row 3 has no NaN
    mx, mn, pmx, pmn = (torch.empty(M, dtype=dtype) for _ in range(4))
    nan_reduce_kernel[(1, )](x, mx, mn, pmx, pmn, M=M, N=N)
    xn = to_numpy(x).astype(np.float64)
    # Triton's tl.max / tl.min ignore NaN (maxnumf/minnumf): like numpy's fmax/fmin reductions.
    torch.testing.assert_close(mx, as_torch(np.fmax.reduce(xn, axis=1), dtype), rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(mn, as_torch(np.fmin.reduce(xn, axis=1), dtype), rtol=0, atol=0, equal_nan=True)
    assert not torch.isnan(mx[:2]).any() and torch.isnan(mx[2])
    # torch.max propagates NaN; so does a reduce with PropagateNan.ALL.
    torch.testing.assert_close(pmx, x.max(1).values, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(pmn, x.min(1).values, rtol=0, atol=0, equal_nan=True)
    assert torch.isnan(pmx[:3]).all() and not torch.isnan(pmx[3])
