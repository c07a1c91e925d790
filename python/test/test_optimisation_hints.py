"""Facts a kernel states for the compiler reach LLVM: `tl.assume(...)` is an `llvm.assume` in the `llir`
stage (it used to be erased as dead code), and the kernel still computes the same."""

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
