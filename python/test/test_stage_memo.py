"""Configurations that differ only in options without meaning on the CPU (num_warps, num_stages, other
targets' options) compile tritium's stages once per process; options that change the code, other
constexprs and TRITON_ALWAYS_COMPILE=1 compile again. Each configuration keeps its own metadata."""

import pytest
import torch
import triton
import triton.language as tl
from triton import knobs

from tritium import _C
from tritium.backends.cpu.stage_memo import stage_memo


@triton.jit
def scaled_exp_kernel(x_ptr, out_ptr, n, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.exp(tl.load(x_ptr + offs, mask=mask) * SCALE), mask=mask)


@pytest.fixture
def stage_calls(monkeypatch, tmp_path):
    """Counts the calls into each of tritium's stages, with Triton's on-disk cache empty."""
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    stage_memo.clear()
    calls = {"ttir_to_linalg": 0, "linalg_to_llir": 0, "llir_to_object": 0}
    for name in calls:
        stage = getattr(_C, name)

        def counted(*args, _stage=stage, _name=name, **kwargs):
            calls[_name] += 1
            return _stage(*args, **kwargs)

        monkeypatch.setattr(_C, name, counted)
    yield calls
    stage_memo.clear()


# Triton keeps the kernels it compiled in memory, per JIT function and launch options: each test
# launches with SCALEs of its own, so that what it counts is compiled in it.
def launch(n=1000, **options):
    x = torch.randn(n)
    out = torch.empty(n)
    kernel = scaled_exp_kernel[(triton.cdiv(n, 256), )](x, out, n, BLOCK=256, **options)
    torch.testing.assert_close(out, torch.exp(x * options.get("SCALE", 1.0)), rtol=2e-7, atol=0)
    return kernel


def test_gpu_only_options_compile_once(stage_calls):
    configs = [dict(num_warps=4, num_stages=2), dict(num_warps=8, num_stages=3),
               dict(num_warps=2, num_stages=5, maxnreg=128), dict(num_warps=4, waves_per_eu=2, kpack=2)]
    kernels = [launch(SCALE=0.5, **config) for config in configs]
    assert stage_calls == {"ttir_to_linalg": 1, "linalg_to_llir": 1, "llir_to_object": 1}
    assert stage_memo.hits == 3 * (len(configs) - 1)
    # Each configuration is its own kernel, with the metadata it asked for and the same code.
    assert [kernel.metadata.num_warps for kernel in kernels] == [4, 8, 2, 4]
    assert [kernel.metadata.num_stages for kernel in kernels] == [2, 3, 5, 1]
    assert len({kernel.hash for kernel in kernels}) == len(configs)
    assert len({kernel.asm["llir"] for kernel in kernels}) == 1


def test_another_constexpr_compiles_again(stage_calls):
    launch(SCALE=1.5, num_warps=4)
    launch(SCALE=2.0, num_warps=4)
    launch(SCALE=2.0, num_warps=8)
    assert stage_calls == {"ttir_to_linalg": 2, "linalg_to_llir": 2, "llir_to_object": 2}


def test_options_that_change_the_code_compile_again(stage_calls):
    plain = launch(SCALE=0.75)
    numpy_exp = launch(SCALE=0.75, numpy_exp=True)
    # numpy's exp changes the LLVM stage, not the linalg one.
    assert stage_calls == {"ttir_to_linalg": 1, "linalg_to_llir": 2, "llir_to_object": 2}
    assert plain.asm["llir"] != numpy_exp.asm["llir"]
    checked = launch(SCALE=0.75, check_bounds=True)
    assert stage_calls == {"ttir_to_linalg": 2, "linalg_to_llir": 3, "llir_to_object": 3}
    assert checked.metadata.memory_access_sites and not getattr(plain.metadata, "memory_access_sites", None)


def test_always_compile_bypasses_the_memo(stage_calls, monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    assert knobs.compilation.always_compile
    launch(SCALE=0.25, num_warps=4)
    launch(SCALE=0.25, num_warps=8)
    assert stage_calls == {"ttir_to_linalg": 2, "linalg_to_llir": 2, "llir_to_object": 2}
    assert stage_memo.hits == 0


def test_a_failing_stage_fails_every_time(stage_calls):

    @triton.jit
    def inline_asm_kernel(x_ptr):
        x = tl.load(x_ptr)
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
        tl.store(x_ptr, y)

    for num_warps in (4, 8):
        with pytest.raises(triton.CompilationError, match="inline_asm"):
            inline_asm_kernel[(1, )](torch.zeros(1, dtype=torch.int32), num_warps=num_warps)
    assert stage_calls["ttir_to_linalg"] == 2
