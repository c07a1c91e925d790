"""Matmul operand tiles whose rows lie far apart are copied once a launch per thread, not once a program.

`tritium-cpu-read-tiles-in-place` reads a tile of at least 4 KB whose rows are more than twice its width
apart (or that is column-major: a transposed A, `x @ w.t()`'s B) from the calling thread's copy of it
(`tritium_cached_operand_tile`, OperandTileCache.h), filled the second time the thread looks the tile up in the
launch (the first look-up reads it as before); a program's stores are noted before they run, and drop the
copies they overlap. The tests check the values on every path; three of them would fail if a copy outlived
what it copies (a later launch after the tensors changed, a program that wrote the tile itself), one runs with
the cache turned off.
"""

import os
import subprocess
import sys

import pytest
import torch
import triton
import triton.language as tl

import tritium
from tritium import ir

from test_tiles_read_in_place import run

CACHE_PASS = "builtin.module(tritium-cpu-read-tiles-in-place)"
BLOCK = (64, 64, 32)  # A and B tiles of 8 KB (f32)


def operand(rows, columns, transposed, dtype):
    return torch.randn(columns, rows, dtype=dtype).t() if transposed else torch.randn(rows, columns, dtype=dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("transpose_a,transpose_b", [(False, False), (False, True), (True, False), (True, True)])
@pytest.mark.parametrize("M,N,K", [
    (256, 256, 256),  # every K step whole: every tile from the cache
    (200, 136, 200),  # the last K step masked, rows and columns that wrap (% M, % N): filled as before
])
@pytest.mark.parametrize("threads", [1, 2])
def test_products_read_from_cached_copies(dtype, transpose_a, transpose_b, M, N, K, threads):
    a = operand(M, K, transpose_a, dtype)
    b = operand(K, N, transpose_b, dtype)
    previous = tritium.get_num_threads()
    tritium.set_num_threads(threads)
    try:
        for _ in range(2):  # the second launch finds the first launch's copies, which it must refill
            run(a, b, BLOCK)
    finally:
        tritium.set_num_threads(previous)


def test_the_kernel_looks_its_tiles_up():
    """A and B (rows 256 elements apart, tiles of 8 KB) are looked up; the declaration is there once."""
    compiled = run(torch.randn(128, 256), torch.randn(256, 256), BLOCK)
    cached = str(ir.run_pipeline(compiled.asm["linalg"], CACHE_PASS))
    assert cached.count("call @tritium_cached_operand_tile(") == 2
    assert cached.count("func.func private @tritium_cached_operand_tile(") == 1


def test_small_tiles_are_not_looked_up():
    """A 32x16 f32 tile (2 KB) costs less to read in place than a lookup."""
    compiled = run(torch.randn(64, 256), torch.randn(256, 64), (32, 32, 16))
    assert "tritium_cached_operand_tile" not in str(ir.run_pipeline(compiled.asm["linalg"], CACHE_PASS))


def test_a_later_launch_reads_the_values_of_its_time():
    """The tensors change between two launches at the same addresses: copies of the first launch are refilled."""
    a, b = torch.randn(256, 256), torch.randn(256, 256)
    run(a, b, BLOCK)
    a.mul_(2.0)
    b.add_(1.0)
    run(a, b, BLOCK)


@triton.jit
def multiply_twice(a_ptr, b_ptr, c_ptr, d_ptr, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
                   N: tl.constexpr):
    # Each program owns its rows of A: it multiplies them, doubles them in memory, and multiplies again.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    ks = tl.arange(0, BLOCK_K)
    cols = tl.arange(0, N)
    acc = tl.zeros((BLOCK_M, N), dtype=tl.float32)
    acc2 = tl.zeros((BLOCK_M, N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a_ptrs = a_ptr + rows[:, None] * K + (k + ks)[None, :]
        b = tl.load(b_ptr + (k + ks)[:, None] * N + cols[None, :])
        a = tl.load(a_ptrs)
        acc = tl.dot(a, b, acc)
        tl.store(a_ptrs, a * 2.0)
        acc2 = tl.dot(tl.load(a_ptrs), b, acc2)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)
    tl.store(d_ptr + rows[:, None] * N + cols[None, :], acc2)


def test_a_program_reads_what_it_wrote():
    """The second product must read the doubled A the program stored, not a copy of the first read: the
    store is noted before it runs (tritium_note_written_range), and the second read looks the tile up again."""
    K, N = 256, 64
    a, b = torch.randn(128, K), torch.randn(K, N)
    expected, expected_twice = a @ b, (2 * a) @ b
    c, d = torch.empty(128, N), torch.empty(128, N)
    compiled = multiply_twice[(2, )](a, b, c, d, K, BLOCK_M=64, BLOCK_K=32, N=N)
    torch.testing.assert_close(c, expected, rtol=1e-4, atol=1e-3)
    torch.testing.assert_close(d, expected_twice, rtol=1e-4, atol=1e-3)
    cached = str(ir.run_pipeline(compiled.asm["linalg"], CACHE_PASS))
    assert "call @tritium_cached_operand_tile(" in cached  # the second read of A
    assert "call @tritium_note_written_range(" in cached  # A's store before it


@triton.jit
def scale_between_products(a_ptr, b_ptr, c_ptr, K, STEPS: tl.constexpr, BLOCK_M: tl.constexpr,
                           BLOCK_K: tl.constexpr, N: tl.constexpr):
    # Each program owns its rows of A: STEPS times it multiplies them by B, then doubles them in memory. The
    # second step copies A's tiles into the cache; the third finds them, stale unless the doubling dropped them.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    ks = tl.arange(0, BLOCK_K)
    cols = tl.arange(0, N)
    for step in range(STEPS):
        acc = tl.zeros((BLOCK_M, N), dtype=tl.float32)
        for k in range(0, K, BLOCK_K):
            a = tl.load(a_ptr + rows[:, None] * K + (k + ks)[None, :])
            acc = tl.dot(a, tl.load(b_ptr + (k + ks)[:, None] * N + cols[None, :]), acc)
        tl.store(c_ptr + step * tl.num_programs(0) * BLOCK_M * N + rows[:, None] * N + cols[None, :], acc)
        for k in range(0, K, BLOCK_K):
            a_ptrs = a_ptr + rows[:, None] * K + (k + ks)[None, :]
            tl.store(a_ptrs, tl.load(a_ptrs) * 2.0)


@pytest.mark.parametrize("threads", [1, 2])
def test_copies_made_before_a_store_are_dropped(threads):
    """A program's copies of tiles it then overwrote are not read again: each step reads the A of its time."""
    K, N, M, steps = 256, 64, 128, 4
    a, b = torch.randn(M, K), torch.randn(K, N)
    expected = torch.stack([(2.0**step * a) @ b for step in range(steps)])
    c = torch.empty(steps, M, N)
    previous = tritium.get_num_threads()
    tritium.set_num_threads(threads)
    try:
        compiled = scale_between_products[(2, )](a, b, c, K, STEPS=steps, BLOCK_M=64, BLOCK_K=32, N=N)
    finally:
        tritium.set_num_threads(previous)
    torch.testing.assert_close(c, expected, rtol=1e-4, atol=1e-3)
    cached = str(ir.run_pipeline(compiled.asm["linalg"], CACHE_PASS))
    assert "call @tritium_cached_operand_tile(" in cached
    assert cached.count("call @tritium_note_written_range(") == 2


_WITHOUT_CACHE = """
import sys, torch
sys.path.insert(0, {here!r})
from test_operand_tile_cache import BLOCK, operand, run
for transpose_a, transpose_b in ((False, False), (True, True)):
    run(operand(256, 256, transpose_a, torch.float32), operand(256, 192, transpose_b, torch.float32), BLOCK)
print("ok")
"""


def test_turned_off_the_tiles_are_read_as_before():
    """TRITIUM_TILE_CACHE_MB=0: every lookup answers null, and A is read in place, B and transposed tiles
    copied into the program's buffer."""
    env = dict(os.environ, TRITIUM_TILE_CACHE_MB="0")
    script = _WITHOUT_CACHE.format(here=os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
