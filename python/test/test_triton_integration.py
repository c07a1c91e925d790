"""Triton's own machinery on tritium: discovery, cache, do_bench, autotune, pickling."""

import copy
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
import torch
import triton
import triton.language as tl

from test_vector_add import add_kernel


def test_backend_is_discovered_as_cpu():
    from triton.backends import backends
    assert "cpu" in backends
    assert backends["cpu"].compiler.__module__ == "tritium.backends.cpu.compiler"


def test_cpu_driver_is_active_without_extra_call():
    driver = triton.runtime.driver.active
    assert type(driver).__name__ == "CPUDriver"
    assert driver.get_current_target().backend == "cpu"


def test_default_backend_variable_selects_tritium():
    code = "import triton; print(type(triton.runtime.driver.active).__module__)"
    env = dict(os.environ, TRITON_DEFAULT_BACKEND="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "tritium.backends.cpu.driver"


def test_steps_aside_when_another_driver_is_active():
    code = textwrap.dedent("""
        import os
        os.environ.pop("TRITON_DEFAULT_BACKEND", None)
        import triton.backends as tb
        from tritium.backends.cpu.driver import CPUDriver
        class FakeGPUDriver:
            @classmethod
            def is_active(cls):
                return True
        tb.backends["fakegpu"] = tb.Backend(compiler=object, driver=FakeGPUDriver)
        print(CPUDriver.is_active())
        os.environ["TRITON_DEFAULT_BACKEND"] = "cpu"
        print(CPUDriver.is_active())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


_CACHE_SCRIPT = textwrap.dedent("""
    import sys
    import torch, triton, triton.language as tl
    from tritium.backends.cpu import compiler

    if sys.argv[1] == "forbid-compile":
        def refuse(*args, **kwargs):
            raise RuntimeError("recompiled although the kernel is cached")
        compiler.CPUBackend.make_linalg = staticmethod(refuse)

    @triton.jit
    def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3, mask=offs < n)

    x = torch.arange(100, dtype=torch.float32)
    out = torch.empty_like(x)
    scale_kernel[(4,)](x, out, 100, BLOCK=32)
    assert torch.equal(out, x * 3)
    print("ok")
""")


def test_cache_works_across_processes(tmp_path):
    script = tmp_path / "cached_kernel.py"
    script.write_text(_CACHE_SCRIPT)
    env = dict(os.environ, TRITON_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, str(script), "compile"], env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([sys.executable, str(script), "forbid-compile"], env=env, capture_output=True,
                            text=True)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == "ok"


def test_do_bench_times_a_kernel():
    x = torch.randn(1 << 16)
    out = torch.empty_like(x)
    ms = triton.testing.do_bench(lambda: add_kernel[(64, )](x, x, out, 1 << 16, BLOCK=1024), warmup=5, rep=20)
    assert 0 < ms < 1000


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 256}),
                          triton.Config({"BLOCK": 1024})], key=["n"])
@triton.jit
def autotuned_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def test_autotune_picks_a_config_and_gives_correct_results():
    n = 50000
    x, y = torch.randn(n), torch.randn(n)
    out = torch.empty(n)
    autotuned_add[lambda meta: (triton.cdiv(n, meta["BLOCK"]), )](x, y, out, n)
    torch.testing.assert_close(out, x + y)
    assert autotuned_add.best_config is not None
    assert autotuned_add.best_config.kwargs["BLOCK"] in (64, 256, 1024)


def test_compiled_kernel_pickles_and_runs_as_inductor_does():
    # Inductor ships compiled kernels between processes in this wrapper, which drops the
    # loaded module and function and re-creates them with _init_handles().
    from torch._inductor.runtime.triton_heuristics import TritonCompileResult
    x = torch.randn(3000)
    cached = add_kernel[(3, )](x, x, torch.empty_like(x), 3000, BLOCK=1024)
    # A kernel defined in a test module pickles its Python function by reference, which pickle
    # cannot resolve through the @triton.jit wrapper; the launcher does not need it. Work on a
    # copy: the cached kernel must keep its source.
    compiled = copy.copy(cached)
    compiled.module = compiled.function = None  # the cached kernel owns the loaded code
    compiled.src = copy.copy(cached.src)
    compiled.src.fn = None
    restored = pickle.loads(pickle.dumps(TritonCompileResult(compiled, None, {}, {}))).kernel
    restored._init_handles()
    out = torch.empty_like(x)
    # Inductor calls the launcher directly, with every parameter (constexprs included).
    restored.run(3, 1, 1, 0, restored.function, restored.packed_metadata, None, None, None, x, x, out, 3000,
                 1024)
    torch.testing.assert_close(out, x + x)


def test_ttir_file_compiles_through_triton_compile(tmp_path):
    x = torch.randn(64)
    compiled = add_kernel[(1, )](x, x, torch.empty_like(x), 64, BLOCK=64)
    path = tmp_path / "add.ttir"
    path.write_text(compiled.asm["ttir"])
    recompiled = triton.compile(str(path))
    assert set(["linalg", "llir", "obj"]) <= set(recompiled.asm)
    out = torch.empty_like(x)
    recompiled[(1, 1, 1)](x, x, out, 64)
    torch.testing.assert_close(out, x + x)
