"""The bounds-checking mode: an out-of-bounds load, store or atomic raises IndexError naming the
kernel, the source line, the program, the tensor argument and the index; lanes out of bounds
are skipped, so no memory outside the kernel's tensors is touched and the process goes on.
Correct kernels give the same results with and without the checks."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

import tritium

HERE = os.path.abspath(__file__)


def line_of(text):
    """The line of this file holding `text` (the kernels' source lines, for the messages)."""
    with open(HERE) as source:
        for number, line in enumerate(source, 1):
            if text in line and "line_of(" not in line:
                return number
    raise AssertionError(text)


@triton.jit
def copy_unmasked(src, dst, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    values = tl.load(src + offs)  # the unmasked load
    tl.store(dst + offs, values)  # the unmasked store


@triton.jit
def copy_masked(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


@triton.jit
def load_shifted(src, dst, shift, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs * shift - 1))  # the shifted load


@triton.jit
def gather_scaled(src, dst, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * scale  # int32: wraps past 2^31
    tl.store(dst + tl.arange(0, BLOCK), tl.load(src + offs))  # the wrapping load


@triton.jit
def count_into(counts, index, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(counts + index + offs, 1)  # the atomic add


@triton.jit
def swap_at(flags, index):
    tl.atomic_cas(flags + index, 0, 1)  # the compare and swap


@triton.jit
def matmul_loop(a, b, c, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a + rm[:, None] * K + rk[None, :]
    b_ptrs = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def row_sums(x, out, stride, N: tl.constexpr):
    row = tl.program_id(0)
    values = tl.load(x + row * stride + tl.arange(0, N))
    tl.store(out + row, tl.sum(values, axis=0))


def test_unmasked_load_past_the_end_names_line_program_argument_and_index():
    src, dst = torch.arange(100, dtype=torch.float32), torch.zeros(128)
    with pytest.raises(IndexError) as error:
        copy_unmasked[(1, )](src, dst, BLOCK=128, check_bounds=True)
    message = str(error.value)
    assert "kernel 'copy_unmasked' reads out of bounds" in message
    assert f"{HERE}:{line_of('the unmasked load')}:" in message
    assert "(tt.load), program (0, 0, 0)" in message
    assert "argument 'src' (a tensor of shape (100,) and dtype float32, 100 elements)" in message
    assert "no element at index 100" in message
    assert "0 bytes past its end" in message
    # The lanes in bounds were copied; the others were skipped.
    assert torch.equal(dst[:100], src)


def test_unmasked_store_past_a_views_end_leaves_the_neighbours_alone():
    storage = torch.zeros(256)
    dst = storage[:100]
    src = torch.ones(128)
    with pytest.raises(IndexError) as error:
        copy_unmasked[(1, )](src, dst, BLOCK=128, check_bounds=True)
    message = str(error.value)
    assert "writes out of bounds" in message and "(tt.store)" in message
    assert f":{line_of('the unmasked store')}:" in message
    assert "argument 'dst'" in message and "index 100" in message
    assert torch.equal(storage[:100], torch.ones(100))
    assert torch.equal(storage[100:], torch.zeros(156)), "a write past the view reached memory"


def test_the_offending_program_is_named():
    src, dst = torch.arange(100, dtype=torch.float32), torch.zeros(100)
    with pytest.raises(IndexError, match=r"program \(3, 0, 0\)"):
        copy_unmasked[(4, )](src, dst, BLOCK=32, check_bounds=True)
    assert torch.equal(dst, src), "programs in bounds must run normally"


def test_the_process_goes_on_after_an_out_of_bounds_launch():
    src, dst = torch.arange(100, dtype=torch.float32), torch.zeros(100)
    with pytest.raises(IndexError):
        copy_unmasked[(1, )](src, dst, BLOCK=128, check_bounds=True)
    src2, dst2 = torch.arange(128, dtype=torch.float32), torch.zeros(128)
    copy_unmasked[(1, )](src2, dst2, BLOCK=128, check_bounds=True)
    assert torch.equal(dst2, src2)


def test_an_access_before_the_start_is_reported():
    src, dst = torch.arange(64, dtype=torch.float32), torch.zeros(16)
    with pytest.raises(IndexError) as error:
        load_shifted[(1, )](src, dst, 1, BLOCK=16, check_bounds=True)
    message = str(error.value)
    assert f":{line_of('the shifted load')}:" in message
    assert "index -1" in message and "4 bytes before its start" in message


def test_int32_offsets_that_wrap_are_reported_not_followed():
    src, dst = torch.arange(64, dtype=torch.float32), torch.zeros(4)
    with pytest.raises(IndexError) as error:
        gather_scaled[(1, )](src, dst, 2**30, BLOCK=4, check_bounds=True)
    message = str(error.value)
    assert f":{line_of('the wrapping load')}:" in message
    # The smallest offending address: lane 2 wrapped to -2^31.
    assert f"index {-2**31}" in message


def test_atomics_are_checked():
    counts = torch.zeros(8, dtype=torch.int32)
    with pytest.raises(IndexError) as error:
        count_into[(1, )](counts, 4, BLOCK=8, check_bounds=True)
    message = str(error.value)
    assert "atomically updates out of bounds" in message and "index 8" in message
    assert counts.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]

    flags = torch.zeros(4, dtype=torch.int32)
    with pytest.raises(IndexError, match="atomically compares and swaps out of bounds"):
        swap_at[(1, )](flags, 4, check_bounds=True)
    assert flags.tolist() == [0, 0, 0, 0]
    swap_at[(1, )](flags, 3, check_bounds=True)
    assert flags.tolist() == [0, 0, 0, 1]


def test_numpy_arrays_are_checked_too():
    src = np.arange(100, dtype=np.float32)
    dst = np.zeros(128, dtype=np.float32)
    with pytest.raises(IndexError, match=r"argument 'src' .*100 elements.*index 100"):
        copy_unmasked[(1, )](tritium.as_tensor_arg(src), tritium.as_tensor_arg(dst), BLOCK=128,
                             check_bounds=True)


def test_correct_kernels_give_the_same_results_checked():
    torch.manual_seed(0)
    src = torch.randn(1000)
    checked, unchecked = torch.zeros(1000), torch.zeros(1000)
    copy_masked[(8, )](src, checked, 1000, BLOCK=128, check_bounds=True)
    copy_masked[(8, )](src, unchecked, 1000, BLOCK=128)
    assert torch.equal(checked, unchecked) and torch.equal(checked, src)

    a, b = torch.randn(64, 32), torch.randn(32, 48)
    c = torch.zeros(64, 48)
    matmul_loop[(4, 3)](a, b, c, 64, 48, 32, BLOCK_M=16, BLOCK_N=16, BLOCK_K=8, check_bounds=True)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)

    # Rows of a transposed (non-contiguous) view: the span of its strides is its memory.
    x = torch.randn(16, 24).t()
    out = torch.zeros(24)
    row_sums[(24, )](x.contiguous(), out, 16, N=16, check_bounds=True)
    torch.testing.assert_close(out, x.sum(dim=1))


def test_out_of_bounds_matmul_tile_is_reported():
    a, b = torch.randn(64, 32), torch.randn(32, 48)
    c = torch.zeros(64, 48)
    with pytest.raises(IndexError, match=r"program \(0, 0, 0\):\n  argument 'b' .* index 1536"):
        # K = 40 walks the B tile past its 32 rows.
        matmul_loop[(4, 3)](a, b, c, 64, 48, 40, BLOCK_M=16, BLOCK_N=16, BLOCK_K=8,
                            check_bounds=True)


def test_environment_variable_turns_the_checks_on():
    script = textwrap.dedent(f"""
        import sys, torch
        sys.path.insert(0, {os.path.dirname(HERE)!r})
        from test_bounds_checking import copy_unmasked
        src, dst = torch.zeros(100), torch.zeros(128)
        try:
            copy_unmasked[(1, )](src, dst, BLOCK=128)
        except IndexError as error:
            print("IndexError", "argument 'src'" in str(error))
        else:
            print("no error")
    """)
    env = dict(os.environ, TRITIUM_CHECK_BOUNDS="1")
    by_env = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert by_env.stdout.strip() == "IndexError True", by_env.stderr


def test_debug_alone_leaves_the_checks_off():
    """Inductor compiles every kernel with debug=True (for its indirect-indexing asserts): that must not
    make a compiled model run checked kernels."""
    src, dst = torch.arange(128, dtype=torch.float32), torch.zeros(128)
    kernel = copy_unmasked[(1, )](src, dst, BLOCK=128, debug=True)
    assert kernel.metadata.debug and not kernel.metadata.check_bounds
    assert torch.equal(dst, src)


def test_checks_are_off_by_default():
    src, dst = torch.arange(128, dtype=torch.float32), torch.zeros(128)
    copy_unmasked[(1, )](src, dst, BLOCK=128)
    compiled = [k for k in copy_unmasked.device_caches[0][0].values()
                if not k.metadata.check_bounds]
    assert compiled, "a kernel launched without options must compile without checks"
    assert "tritium.memory_access_sites" not in compiled[0].asm["linalg"]


@triton.jit
def descriptor_copy(src_desc, dst, BLOCK: tl.constexpr):
    tile = src_desc.load([tl.program_id(0) * BLOCK])  # the descriptor load
    tl.store(dst + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), tile)


def test_a_tensor_descriptor_larger_than_its_tensor_is_reported():
    from triton.tools.tensor_descriptor import TensorDescriptor
    storage = torch.arange(64, dtype=torch.float32)
    # The descriptor claims 64 elements of a 48-element view.
    desc = TensorDescriptor(storage[:48], [64], [1], [16])
    dst = torch.zeros(64)
    with pytest.raises(IndexError) as error:
        descriptor_copy[(4, )](desc, dst, BLOCK=16, check_bounds=True)
    message = str(error.value)
    assert f":{line_of('the descriptor load')}:" in message
    assert "argument 'src_desc (descriptor part 0)'" in message and "index 48" in message
    # Correct descriptors pass.
    good = TensorDescriptor.from_tensor(storage, [16])
    descriptor_copy[(4, )](good, dst, BLOCK=16, check_bounds=True)
    assert torch.equal(dst, storage)
