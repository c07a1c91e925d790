"""A kernel that faults ends the process as a GPU's illegal memory access ends its context, but
first says on stderr which kernel, which program and which address, and how to find the line.
Faults outside kernels pass on to the handlers that were there before. Each case runs in a
subprocess."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

KERNELS = textwrap.dedent("""
    import ctypes, sys, torch, triton, triton.language as tl

    @triton.jit
    def wild_store(x, out, far, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        values = tl.load(x + offs)
        # Only the program whose id is `far` writes a terabyte away.
        tl.store(out + offs + (tl.program_id(0) == far).to(tl.int64) * (1 << 40), values)

    x, out = torch.ones(64 * 64), torch.empty(64 * 64)
    wild_store[(64, )](x, out, -1, BLOCK=64)  # a correct launch first: nothing is reported
    print("first launch ran", flush=True)
""")


def run(tmp_path, script, *flags, **env):
    """Runs `script` from a file (@triton.jit needs its source) in a fresh interpreter."""
    path = tmp_path / "crash.py"
    path.write_text(script)
    environment = dict(os.environ, **env)
    return subprocess.run([sys.executable, *flags, str(path)], capture_output=True, text=True,
                          env=environment, timeout=300, cwd=HERE)


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_fault_in_a_kernel_names_kernel_program_and_address(tmp_path, threads):
    script = KERNELS + "wild_store[(64, )](x, out, 37, BLOCK=64)\nprint('not reached')\n"
    result = run(tmp_path, script, TRITIUM_NUM_THREADS=threads)
    assert result.returncode == -signal.SIGSEGV, (result.returncode, result.stderr)
    assert "first launch ran" in result.stdout and "not reached" not in result.stdout
    assert "tritium: kernel 'wild_store' crashed with SIGSEGV, an invalid memory access at address 0x" \
        in result.stderr
    assert "in program (37, 0, 0) of grid (64, 1, 1)" in result.stderr
    assert "TRITIUM_CHECK_BOUNDS=1" in result.stderr


def test_python_faulthandler_still_prints_its_traceback(tmp_path):
    script = KERNELS + "wild_store[(64, )](x, out, 5, BLOCK=64)\n"
    result = run(tmp_path, script, "-X", "faulthandler")
    assert result.returncode == -signal.SIGSEGV
    assert "tritium: kernel 'wild_store' crashed" in result.stderr
    assert "Fatal Python error: Segmentation fault" in result.stderr


def test_a_fault_outside_kernels_is_not_reported_as_one(tmp_path):
    # After a launch the handler is installed; a fault in Python's own code passes through it.
    script = KERNELS + "ctypes.string_at(0)\n"
    result = run(tmp_path, script)
    assert result.returncode == -signal.SIGSEGV
    assert "tritium:" not in result.stderr


def test_the_bounds_checking_mode_turns_the_crash_into_an_index_error(tmp_path):
    script = KERNELS + textwrap.dedent("""
        try:
            wild_store[(64, )](x, out, 37, BLOCK=64)
        except IndexError as error:
            print("IndexError:", error)
        print("still running")
    """)
    result = run(tmp_path, script, TRITIUM_CHECK_BOUNDS="1")
    assert result.returncode == 0, result.stderr
    assert "IndexError: tritium: kernel 'wild_store' writes out of bounds" in result.stdout
    assert "program (37, 0, 0)" in result.stdout and "argument 'out'" in result.stdout
    assert "still running" in result.stdout
