"""Kernels written for other targets run unmodified: their launch options are accepted and ignored, and the
occupancy arithmetic of Triton's fused-softmax tutorial (n_regs, shared memory, warp size, register file)
gives a sensible persistent grid."""

import pytest
import torch
import triton
import triton.language as tl
from triton.runtime import driver


@triton.jit
def add_one_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


@pytest.mark.parametrize("options", [
    dict(matrix_instr_nonkdim=16, waves_per_eu=2, kpack=2),
    dict(schedule_hint="attention", allow_flush_denorm=True, wgp_cu_mode="cu"),
    dict(maxnreg=128, ptx_version=80, enable_reflect_ftz=False),
], ids=["amd-mfma", "amd-misc", "nvidia"])
def test_other_targets_launch_options_are_accepted(options):
    x = torch.zeros(100)
    add_one_kernel[(2, )](x, 100, BLOCK=64, **options)
    assert torch.equal(x, torch.ones(100))


def test_unknown_launch_option_still_names_itself():
    with pytest.raises(KeyError, match="not_an_option"):
        add_one_kernel[(1, )](torch.zeros(4), 4, BLOCK=4, not_an_option=1)


@triton.autotune(configs=[
    triton.Config({"BLOCK": 32, "matrix_instr_nonkdim": 16, "waves_per_eu": 2}),
    triton.Config({"BLOCK": 64, "kpack": 2}, num_warps=8),
], key=["n"])
@triton.jit
def autotuned_add_one_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


def test_autotune_configs_with_amd_options():
    x = torch.zeros(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]), )  # noqa: E731
    autotuned_add_one_kernel[grid](x, 1000)
    # the autotuner ran every config on x before the final launch: 2 configs x their repetitions + 1
    assert (x == x[0]).all() and x[0] >= 1


@triton.jit
def persistent_softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


def test_fused_softmax_tutorial_occupancy_arithmetic():
    """The tutorial's sizing of a persistent grid, as written for NVIDIA GPUs."""
    properties = driver.active.utils.get_device_properties(0)
    NUM_SM, NUM_REGS = properties["multiprocessor_count"], properties["max_num_regs"]
    SIZE_SMEM, WARP_SIZE = properties["max_shared_mem"], properties["warpSize"]
    x = torch.randn(300, 200)
    y = torch.empty_like(x)
    num_warps = 8
    kernel = persistent_softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), 300, 200, BLOCK=256,
                                              num_warps=num_warps, grid=(1, ))
    kernel._init_handles()
    n_regs, size_smem = kernel.n_regs, kernel.metadata.shared
    assert n_regs in (16, 32)  # the host's vector registers
    assert 0 < size_smem < SIZE_SMEM  # the row's exp tile lives on the program's stack
    occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    occupancy = min(occupancy, SIZE_SMEM // size_smem)
    num_programs = min(NUM_SM * occupancy, 300)
    assert NUM_SM <= num_programs <= 64 * NUM_SM
    kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), 300, 200, 256)  # constexprs too, as compiled
    torch.testing.assert_close(y, torch.softmax(x, 1))


def test_compiled_kernel_called_without_its_constexprs_names_them():
    """A library's own kernel cache calls compiled kernels directly; leaving out the constexpr arguments
    says which parameters are missing."""
    x = torch.zeros(64)
    kernel = add_one_kernel.warmup(x, 64, BLOCK=64, grid=(1, ))
    with pytest.raises(TypeError, match=r"kernel 'add_one_kernel' takes 3 parameters, 2 given: missing BLOCK"):
        kernel[(1, 1, 1)](x, 64)
    kernel[(1, 1, 1)](x, 64, 64)
    assert torch.equal(x, torch.ones(64))
