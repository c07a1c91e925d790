"""The reference target: tritium's linalg stage lowered by upstream MLIR passes only.

It is the proof that the linalg stage is a contract another compiler can consume
(docs/new-device.md). It is a second Triton backend (entry point `reference`), inactive unless
TRITON_DEFAULT_BACKEND=reference selects it, so its runs happen in subprocesses.
"""

import os
import subprocess
import sys
import textwrap

import triton

HERE = os.path.dirname(os.path.abspath(__file__))


def run_on_reference(args, timeout):
    env = dict(os.environ, TRITON_DEFAULT_BACKEND="reference")
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          cwd=HERE)


def test_it_is_registered_and_inactive_by_default():
    from triton.backends import backends
    assert "reference" in backends
    assert triton.runtime.driver.active.get_current_target().backend == "cpu"


KERNELS = textwrap.dedent("""
    import torch, triton, triton.language as tl
    from tritium.backends.reference.compiler import UPSTREAM_PIPELINE

    @triton.jit
    def softmax_rows(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * n_cols + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)

    @triton.jit
    def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            rk = k + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

    @triton.jit
    def histogram(x_ptr, counts_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.atomic_add(counts_ptr + tl.load(x_ptr + offs, mask=offs < n, other=0), 1, mask=offs < n)

    @triton.jit
    def to_fp8(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e4nv))

    @triton.jit
    def positive(x_ptr, BLOCK: tl.constexpr):
        tl.device_assert(tl.load(x_ptr + tl.arange(0, BLOCK)) > 0, "must be positive")

    assert triton.runtime.driver.active.get_current_target().backend == "reference"
    x = torch.randn(37, 100)
    out = torch.empty_like(x)
    k = softmax_rows[(37, )](x, out, 100, BLOCK=128)
    torch.testing.assert_close(out, torch.softmax(x, 1))
    # The reference lowering, not the CPU target's: no kernel entry wrapper, no tritium pass.
    assert "__entry" not in k.asm["llir"] and k.metadata.target.backend == "reference"

    a, b = torch.randn(50, 70), torch.randn(70, 40)
    c = torch.empty(50, 40)
    matmul[(4, 3)](a, b, c, 50, 40, 70, BM=16, BN=16, BK=32)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)

    values = torch.randint(0, 10, (1000, ), dtype=torch.int32)
    counts = torch.zeros(10, dtype=torch.int32)
    histogram[(8, )](values, counts, 1000, BLOCK=128)
    assert torch.equal(counts, torch.bincount(values, minlength=10).to(torch.int32))

    # Its boolean condition tile would be stored as i1, which upstream memref-to-llvm asserts on:
    # a clear error instead of a crash.
    try:
        positive[(1, )](-torch.ones(16), BLOCK=16, debug=True)
        raise SystemExit("a kernel with a boolean tile in memory compiled")
    except Exception as error:
        assert "boolean tile in memory" in str(error), error
    # fp8 conversions have no upstream lowering to LLVM: the same kind of clear error.
    try:
        to_fp8[(1, )](torch.ones(16), torch.empty(16, dtype=torch.float8_e4m3fn), BLOCK=16)
        raise SystemExit("an fp8 kernel compiled")
    except Exception as error:
        assert "uses an fp8 type" in str(error), error
    print("reference target ok")
""")


def test_kernels_run_on_the_reference_target(tmp_path):
    script = tmp_path / "reference_kernels.py"  # @triton.jit needs its source in a file
    script.write_text(KERNELS)
    result = run_on_reference([str(script)], timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "reference target ok" in result.stdout


def test_the_zoo_runs_on_the_reference_target():
    result = run_on_reference(["-m", "pytest", "-q", "-p", "no:cacheprovider", "zoo"], timeout=1800)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-3000:]
    assert " passed" in result.stdout and " failed" not in result.stdout
