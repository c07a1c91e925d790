"""Kernels for test_random.py, importable both by tritium and by Triton's interpreter.

Run as a script it is the interpreter side: `TRITON_INTERPRET=1 python random_kernels.py spec.json out.npz`
launches the kernels named in spec.json (a list of cases, see `run_case`) and saves every output array
into out.npz under the case's name. TRITON_INTERPRET must be set before triton is imported.
"""

import json
import sys

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def philox_kernel(out_ptr, offsets_ptr, seed, n, KIND: tl.constexpr, N_ROUNDS: tl.constexpr,
                  FROM_MEMORY: tl.constexpr, BLOCK: tl.constexpr):
    """out[i] = a random value for offset i (or offsets[i] when FROM_MEMORY); randint4x writes 4 rows of n."""
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < n
    if FROM_MEMORY:
        offs = tl.load(offsets_ptr + idx, mask=mask, other=0)
    else:
        offs = idx
    if KIND == "rand":
        tl.store(out_ptr + idx, tl.rand(seed, offs, N_ROUNDS), mask=mask)
    elif KIND == "randn":
        tl.store(out_ptr + idx, tl.randn(seed, offs, N_ROUNDS), mask=mask)
    elif KIND == "randint":
        tl.store(out_ptr + idx, tl.randint(seed, offs, N_ROUNDS).to(tl.int32, bitcast=True), mask=mask)
    else:
        r0, r1, r2, r3 = tl.randint4x(seed, offs, N_ROUNDS)
        tl.store(out_ptr + idx, r0.to(tl.int32, bitcast=True), mask=mask)
        tl.store(out_ptr + n + idx, r1.to(tl.int32, bitcast=True), mask=mask)
        tl.store(out_ptr + 2 * n + idx, r2.to(tl.int32, bitcast=True), mask=mask)
        tl.store(out_ptr + 3 * n + idx, r3.to(tl.int32, bitcast=True), mask=mask)


@triton.jit
def philox_2d_kernel(out_ptr, seed, row_stride, KIND: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    """Random values for a 2-D block of offsets row * row_stride + col."""
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    offs = rows * row_stride + cols
    if KIND == "rand":
        r = tl.rand(seed, offs)
    else:
        r = tl.randn(seed, offs)
    tl.store(out_ptr + rows * N + cols, r)


@triton.jit
def seeded_dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    """Low-memory dropout (Triton tutorial 04): the keep mask is regenerated from (seed, offset)."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    keep = tl.rand(seed, offsets) > p
    tl.store(out_ptr + offsets, tl.where(keep, x / (1 - p), 0.0), mask=mask)


@triton.jit
def seeded_dropout_constexpr_p_kernel(x_ptr, out_ptr, n, seed, P: tl.constexpr, BLOCK: tl.constexpr):
    """The same dropout with p a compile-time constant.

    Triton's interpreter keeps a float scalar argument as a Python float, so `1 - p` is computed in float64 there
    but in float32 by a compiled kernel; with a constexpr p both fold `1 - P` in Python and then round it to a
    float32 constant, so their results can be compared bit for bit.
    """
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    keep = tl.rand(seed, offsets) > P
    tl.store(out_ptr + offsets, tl.where(keep, x / (1 - P), 0.0), mask=mask)


def run_case(case):
    """Launch one case; returns the output as a numpy array. Shared by the test and the interpreter side."""
    kind = case["kind"]
    if kind == "dropout":
        n, block = case["n"], case["block"]
        x = torch.from_numpy(np.asarray(case["x"], dtype=np.float32)) if "x" in case else torch.ones(n)
        out = torch.empty(n)
        grid = (triton.cdiv(n, block), )
        if case.get("constexpr_p"):
            seeded_dropout_constexpr_p_kernel[grid](x, out, n, case["seed"], P=case["p"], BLOCK=block)
        else:
            seeded_dropout_kernel[grid](x, out, n, case["p"], case["seed"], BLOCK=block)
        return out.numpy()
    if case.get("two_d"):
        M, N = case["M"], case["N"]
        out = torch.empty(M, N)
        philox_2d_kernel[(1, )](out, case["seed"], case["row_stride"], KIND=kind, M=M, N=N)
        return out.numpy()
    n, block = case["n"], case["block"]
    if "offsets" in case:
        offsets = torch.tensor(case["offsets"], dtype=getattr(torch, case["offsets_dtype"]))
    else:
        offsets = torch.zeros(1, dtype=torch.int32)
    rows = 4 if kind == "randint4x" else 1
    out = torch.empty(rows * n, dtype=torch.float32 if kind in ("rand", "randn") else torch.int32)
    philox_kernel[(triton.cdiv(n, block), )](out, offsets, case["seed"], n, KIND=kind, N_ROUNDS=case.get("rounds", 10),
                                            FROM_MEMORY="offsets" in case, BLOCK=block)
    return out.numpy().reshape(rows, n) if rows > 1 else out.numpy()


def main(spec_path, out_path):
    import os
    assert os.environ.get("TRITON_INTERPRET") == "1", "the interpreter side must run with TRITON_INTERPRET=1"
    with open(spec_path) as f:
        cases = json.load(f)
    np.savez(out_path, **{case["name"]: run_case(case) for case in cases})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
