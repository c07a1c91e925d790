"""libdevice's integer functions, through tritium's libdevice and through CUDA's (`__nv_*` symbols), bit-exact
against Python integers: brev, byte_perm, mulhi (4 signatures), mul24, hadd, rhadd, sad (signed and unsigned),
ffs, popc, clz (32- and 64-bit; the 64-bit counts return int32 as in CUDA)."""

import numpy as np
import pytest
import torch
import triton

from conftest import BITS, SIGNED, int_range, libdevice_kernel, wrap

N = 512


ARITY = {"brev": 1, "byte_perm": 3, "mulhi": 2, "mul24": 2, "hadd": 2, "rhadd": 2, "sad": 3, "ffs": 1, "popc": 1,
         "clz": 1}


def _reference(fn, dtype, x, y, z):
    bits = BITS[dtype]
    u = lambda v: v & ((1 << bits) - 1)  # noqa: E731
    if fn == "brev":
        return int(format(u(x), f"0{bits}b")[::-1], 2)
    if fn == "byte_perm":
        both = (u(y) << 32) | u(x)
        return sum(((both >> (8 * ((z >> (4 * i)) & 7))) & 0xFF) << (8 * i) for i in range(4))
    if fn == "mulhi":
        return (x * y) >> bits
    if fn == "mul24":
        low = lambda v: (v & 0xFFFFFF) - ((v & 0x800000) << 1 if dtype in SIGNED else 0)  # noqa: E731
        return low(x) * low(y)
    if fn == "hadd":
        return (x + y) >> 1
    if fn == "rhadd":
        return (x + y + 1) >> 1
    if fn == "sad":
        return abs(x - y) + z
    if fn == "ffs":
        return (u(x) & -u(x)).bit_length()
    if fn == "popc":
        return bin(u(x)).count("1")
    if fn == "clz":
        return bits - u(x).bit_length()
    raise AssertionError(fn)


# (function, operand dtypes x/y/z, result dtype), as CUDA's libdevice declares them
SIGNATURES = [
    ("brev", torch.int32, torch.int32), ("brev", torch.int64, torch.int64),
    ("byte_perm", torch.int32, torch.int32),
    ("mulhi", torch.int32, torch.int32), ("mulhi", torch.uint32, torch.uint32), ("mulhi", torch.int64, torch.int64),
    ("mulhi", torch.uint64, torch.uint64),
    ("mul24", torch.int32, torch.int32), ("mul24", torch.uint32, torch.uint32),
    ("hadd", torch.int32, torch.int32), ("hadd", torch.uint32, torch.uint32),
    ("rhadd", torch.int32, torch.int32), ("rhadd", torch.uint32, torch.uint32),
    ("sad", torch.int32, torch.int32), ("sad", torch.uint32, torch.uint32),
    ("ffs", torch.int32, torch.int32), ("ffs", torch.int64, torch.int32),
    ("popc", torch.int32, torch.int32), ("popc", torch.int64, torch.int32),
    ("clz", torch.int32, torch.int32), ("clz", torch.int64, torch.int32),
]


def _values(dtype, seed):
    lo, hi = int_range(dtype)
    rng = np.random.RandomState(seed)
    edges = [lo, hi, 0, 1, lo + 1, hi - 1, 2, 0xFF, 0x80, 0x7FFFFF, 0x800000, 0xFFFFFF]
    edges = [wrap(v, dtype) for v in edges]
    randoms = [int(v) for v in rng.randint(0, 2**63, size=N - len(edges), dtype=np.uint64)]
    return edges + [wrap(v, dtype) for v in randoms]


def _tensor(values, dtype):
    signed = {torch.uint32: torch.int32, torch.uint64: torch.int64}.get(dtype, dtype)
    return torch.tensor([wrap(v, signed) for v in values], dtype=signed).view(dtype)


@pytest.mark.parametrize("use_cuda", [False, True], ids=["tritium_libdevice", "cuda_libdevice"])
@pytest.mark.parametrize("fn,dtype,result", SIGNATURES,
                         ids=[f"{f}-{str(d).replace('torch.', '')}" for f, d, _ in SIGNATURES])
def test_libdevice_integer_function(fn, dtype, result, use_cuda):
    x, y = _values(dtype, 1), _values(dtype, 2)
    z = _values(dtype, 3)
    if fn == "byte_perm":
        z = [v & 0x7777 for v in z]  # selectors: 4 nibbles of 3 bits
    if fn == "sad":
        z = [v & 0xFFFF for v in _values(torch.uint32, 3)]
        z_tensor = _tensor(z, torch.uint32)
    else:
        z_tensor = _tensor(z, dtype)
    out = torch.empty(N, dtype=result)
    libdevice_kernel[(triton.cdiv(N, 256), )](_tensor(x, dtype), _tensor(y, dtype), z_tensor, out, N, NAME=fn,
                                             ARITY=ARITY[fn], USE_CUDA=use_cuda, BLOCK=256)
    signed_result = {torch.uint32: torch.int32, torch.uint64: torch.int64}.get(result, result)
    actual = out.view(signed_result).tolist()
    expected = [wrap(_reference(fn, dtype, a, b, c), signed_result) for a, b, c in zip(x, y, z)]
    bad = [i for i, (a, e) in enumerate(zip(actual, expected)) if a != e]
    assert not bad, (f"{fn}({x[bad[0]]}, {y[bad[0]]}, {z[bad[0]]}) = {actual[bad[0]]}, expected {expected[bad[0]]} "
                     f"({len(bad)} of {N} differ)")
