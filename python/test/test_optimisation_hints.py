"""Facts a kernel states for the compiler reach LLVM: `tl.assume(...)` is an `llvm.assume` in the `llir`
stage (it used to be erased as dead code), `tl.range`'s loop hints are the loop's `!llvm.loop`
metadata (they used to be dropped at the translation to LLVM IR), and the kernel still computes
the same."""

import pytest

import torch
import triton
import triton.language as tl


@triton.jit
def assume_kernel(x_ptr, n, BLOCK: tl.constexpr):
    tl.assume(n > 0)
    tl.assume(n % 16 == 0)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def test_assume_reaches_llir():
    x = torch.arange(64.0)
    compiled = assume_kernel[(2, )](x, 64, BLOCK=32)
    assert "llvm.assume" in compiled.asm["llir"]
    assert torch.equal(x, torch.arange(64.0) * 2)


@triton.jit
def hinted_loop_kernel(x_ptr, out_ptr, n, DISABLE_LICM: tl.constexpr, UNROLL: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK, ), tl.float32)
    for i in tl.range(0, n, disable_licm=DISABLE_LICM, loop_unroll_factor=UNROLL):
        acc += tl.load(x_ptr + i * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


@pytest.mark.parametrize("disable_licm,unroll", [(True, None), (False, None), (True, 2), (False, 1)])
def test_loop_hints_reach_llir(disable_licm, unroll):
    x = torch.randn(7, 16)
    out = torch.empty(16)
    compiled = hinted_loop_kernel[(1, )](x, out, 7, DISABLE_LICM=disable_licm, UNROLL=unroll, BLOCK=16)
    # (unroll factors are consumed by LLVM's unroller; what stays in the llir is its result)
    assert ("llvm.licm.disable" in compiled.asm["llir"]) == disable_licm
    torch.testing.assert_close(out, x.sum(dim=0))
