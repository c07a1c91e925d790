"""tl.device_print and tl.device_assert on CPU tensors.

tl.device_print prints one line per element, like Triton on a GPU:
    pid (x, y, z) idx (i, j) <prefix><value>
where <prefix> is the prefix Triton's frontend normalizes to " name: " (semantic.device_print), and a print of
several operands tags each with "(operand k)". Programs run on several threads, so lines of different programs
interleave: the tests compare sets of lines. Floats print with "%f".

tl.device_assert only exists in kernels compiled with debug=True (or TRITON_DEBUG=1); a failing assert makes the
launch raise AssertionError naming the message and the program id.
"""

import os
import re
import subprocess
import sys
import textwrap

import pytest
import torch
import triton
import triton.language as tl

LINE = re.compile(r"^pid \((\d+), (\d+), (\d+)\)(?: idx \(([\d, ]*)\))?(.*)$")


def parse(out, name):
    """{(pid, idx, operand): value text} for the lines whose prefix is `name`.

    Lenient about the separator between prefix and value (the exact text is checked in test_line_format).
    """
    found = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        pid = tuple(int(v) for v in m.group(1, 2, 3))
        idx = tuple(int(v) for v in m.group(4).split(",")) if m.group(4) else ()
        rest = m.group(5).strip()
        if not rest.startswith(name + ":"):
            continue
        rest = rest[len(name) + 1:].strip()
        operand = None
        op = re.match(r"^(?::\s*)?\(operand (\d+)\):?\s*(.*)$", rest)
        if op:
            operand, rest = int(op.group(1)), op.group(2)
        elif rest.startswith(":"):
            rest = rest[1:].strip()
        key = (pid, idx, operand)
        assert key not in found, f"element printed twice: {line!r}"
        found[key] = rest.strip()
    return found


# ---------------------------------------------------------------------------------------------
# tl.device_print
# ---------------------------------------------------------------------------------------------


@triton.jit
def print_1d_kernel(x_ptr, HEX: tl.constexpr, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.device_print("val", tl.load(x_ptr + offs), hex=HEX)


PRINT_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
                torch.int64, torch.uint8, torch.uint32, torch.bool]
PRINT_VALUES = {
    torch.float64: [-2.5, 0.0, 1e10, 3.125],
    torch.float32: [-2.5, 0.0, 65536.5, 3.125],
    torch.float16: [-2.5, 0.0, 1024.0, 3.125],
    torch.bfloat16: [-2.5, 0.0, 256.0, 3.125],
    torch.int8: [-128, -1, 0, 127],
    torch.int16: [-32768, -1, 0, 32767],
    torch.int32: [-2**31, -1, 0, 2**31 - 1],
    torch.int64: [-2**63, -1, 0, 2**63 - 1],
    torch.uint8: [0, 1, 128, 255],
    torch.uint32: [0, 1, 2**31, 2**32 - 1],
    torch.bool: [True, False, False, True],
}


def _ids(dtypes):
    return [str(d).replace("torch.", "") for d in dtypes]


@pytest.mark.parametrize("dtype", PRINT_DTYPES, ids=_ids(PRINT_DTYPES))
def test_print_every_element_with_pid_and_index(dtype, capfd):
    values = PRINT_VALUES[dtype] * 2  # two programs of four elements
    x = torch.tensor(values, dtype=torch.int64 if dtype in (torch.uint32, ) else None).to(dtype)
    print_1d_kernel[(2, )](x, HEX=False, N=4)
    found = parse(capfd.readouterr().out, "val")
    assert len(found) == 8
    for pid in range(2):
        for i in range(4):
            text = found[((pid, 0, 0), (i, ), None)]
            v = values[pid * 4 + i]
            if dtype.is_floating_point:
                assert re.fullmatch(r"-?\d+\.\d{6}", text), text
                assert float(text) == pytest.approx(v, abs=1e-6)
            else:
                assert text == str(int(v)), (i, text)


HEX_DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint32]


@pytest.mark.parametrize("dtype", HEX_DTYPES, ids=_ids(HEX_DTYPES))
def test_print_ints_in_hex(dtype, capfd):
    values = PRINT_VALUES[dtype]
    x = torch.tensor(values, dtype=torch.int64 if dtype == torch.uint32 else None).to(dtype)
    print_1d_kernel[(1, )](x, HEX=True, N=4)
    found = parse(capfd.readouterr().out, "val")
    bits = torch.finfo(dtype).bits if dtype.is_floating_point else torch.iinfo(dtype).bits
    for i, v in enumerate(values):
        expected = "0x" + format(v & ((1 << bits) - 1), f"0{bits // 4}x")
        assert found[((0, 0, 0), (i, ), None)] == expected


@triton.jit
def print_2d_and_scalars_kernel(x_ptr, scalar, M: tl.constexpr, N: tl.constexpr):
    pid_x, pid_y, pid_z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.device_print("tile", x + pid_x * 100 + pid_y * 10 + pid_z)
    tl.device_print("arg", scalar)
    tl.device_print("px", pid_x)
    tl.device_print("sum", tl.sum(x))


def test_print_2d_tile_scalars_and_3d_grid(capfd):
    x = torch.arange(8, dtype=torch.int32).reshape(2, 4)
    print_2d_and_scalars_kernel[(2, 3, 2)](x, 77, M=2, N=4)
    out = capfd.readouterr().out
    tile, arg, px, total = parse(out, "tile"), parse(out, "arg"), parse(out, "px"), parse(out, "sum")
    pids = [(a, b, c) for a in range(2) for b in range(3) for c in range(2)]
    assert len(tile) == len(pids) * 8
    for pid in pids:
        for i in range(2):
            for j in range(4):
                assert tile[(pid, (i, j), None)] == str(i * 4 + j + pid[0] * 100 + pid[1] * 10 + pid[2])
        assert arg[(pid, (), None)] == "77"
        assert px[(pid, (), None)] == str(pid[0])
        assert total[(pid, (), None)] == "28"


@triton.jit
def print_two_operands_kernel(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.device_print("pair", x, x * 2.5)


def test_print_several_operands(capfd):
    x = torch.tensor([1, -2, 3, 4], dtype=torch.int32)
    print_two_operands_kernel[(1, )](x, N=4)
    found = parse(capfd.readouterr().out, "pair")
    assert len(found) == 8
    for i, v in enumerate(x.tolist()):
        assert found[((0, 0, 0), (i, ), 0)] == str(v)
        assert float(found[((0, 0, 0), (i, ), 1)]) == v * 2.5


@triton.jit
def print_nonfinite_kernel(x_ptr, N: tl.constexpr):
    tl.device_print("f", tl.load(x_ptr + tl.arange(0, N)))


def test_print_nonfinite_floats(capfd):
    x = torch.tensor([float("nan"), float("inf"), float("-inf"), -0.0])
    print_nonfinite_kernel[(1, )](x, N=4)
    found = parse(capfd.readouterr().out, "f")
    assert found[((0, 0, 0), (0, ), None)].lower() in ("nan", "-nan")
    assert found[((0, 0, 0), (1, ), None)] == "inf"
    assert found[((0, 0, 0), (2, ), None)] == "-inf"
    assert found[((0, 0, 0), (3, ), None)] == "-0.000000"


@triton.jit
def print_format_kernel(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.device_print("x", x)
    tl.device_print("s", tl.program_id(0))


def test_line_format(capfd):
    """Triton's frontend turns the prefix "x" into " x: "; the line is `pid (...) idx (...)` + prefix + value."""
    x = torch.tensor([5, -7], dtype=torch.int32)
    print_format_kernel[(1, )](x, N=2)
    lines = capfd.readouterr().out.splitlines()
    assert "pid (0, 0, 0) idx (0) x: 5" in lines, lines
    assert "pid (0, 0, 0) idx (1) x: -7" in lines, lines
    assert "pid (0, 0, 0) s: 0" in lines or "pid (0, 0, 0) idx () s: 0" in lines, lines


@triton.jit
def print_in_loop_kernel(n):
    for i in range(n):
        if i % 2 == 1:
            tl.device_print("odd", i)


def test_print_inside_control_flow(capfd):
    print_in_loop_kernel[(1, )](7)
    # every line has the same (pid, no index): check the values in order
    lines = [line for line in capfd.readouterr().out.splitlines() if "odd" in line]
    assert all(line.startswith("pid (0, 0, 0)") for line in lines), lines
    assert [line.rsplit(":", 1)[1].strip() for line in lines] == ["1", "3", "5"]


# ---------------------------------------------------------------------------------------------
# tl.device_assert
# ---------------------------------------------------------------------------------------------


@triton.jit
def assert_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.device_assert(x >= 0, "x must be non-negative")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
                                   torch.int16, torch.int32, torch.int64],
                         ids=_ids([torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
                                   torch.int16, torch.int32, torch.int64]))
def test_passing_assert_does_nothing(dtype):
    x = torch.arange(100).to(dtype)
    assert_kernel[(4, )](x, 100, BLOCK=32, debug=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
                                   torch.int16, torch.int32, torch.int64],
                         ids=_ids([torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
                                   torch.int16, torch.int32, torch.int64]))
def test_failing_assert_raises_with_message_and_program_id(dtype):
    x = torch.arange(100).to(dtype)
    x[70] = -3  # in program 2 only
    with pytest.raises(AssertionError) as info:
        assert_kernel[(4, )](x, 100, BLOCK=32, debug=True)
    message = str(info.value)
    assert "x must be non-negative" in message
    assert "(2, 0, 0)" in message
    assert "assert_kernel" in message


def test_assert_on_masked_out_element_does_not_fire():
    x = torch.arange(40, dtype=torch.int32)
    x[35:] = -1  # beyond n: loaded as `other` = 0
    assert_kernel[(2, )](x, 35, BLOCK=32, debug=True)


def test_assert_is_compiled_out_without_debug():
    x = -torch.ones(32)
    assert_kernel[(1, )](x, 32, BLOCK=32)  # debug defaults to False: no check
    with pytest.raises(AssertionError):
        assert_kernel[(1, )](x, 32, BLOCK=32, debug=True)


def test_assert_enabled_by_triton_debug_env(tmp_path):
    # triton.knobs reads TRITON_DEBUG when triton is imported: set it in a fresh process.
    code = textwrap.dedent("""
        import torch
        from test_debug_ops import assert_kernel
        assert_kernel[(1, )](torch.ones(32), 32, BLOCK=32)
        try:
            assert_kernel[(1, )](-torch.ones(32), 32, BLOCK=32)
        except AssertionError as e:
            print("raised:", e)
    """)
    env = dict(os.environ, TRITON_DEBUG="1", TRITON_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.abspath(__file__)) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "raised:" in out.stdout and "x must be non-negative" in out.stdout and "(0, 0, 0)" in out.stdout


def test_assert_enabled_by_debug_knob(monkeypatch):
    monkeypatch.setattr(triton.knobs.runtime, "debug", True)
    with pytest.raises(AssertionError, match="x must be non-negative"):
        assert_kernel[(1, )](-torch.ones(32), 32, BLOCK=32)


def test_launch_after_a_failed_assert_is_clean():
    bad, good = -torch.ones(32), torch.ones(32)
    with pytest.raises(AssertionError):
        assert_kernel[(1, )](bad, 32, BLOCK=32, debug=True)
    assert_kernel[(1, )](good, 32, BLOCK=32, debug=True)  # the failure is not reported again


@triton.jit
def assert_grid_kernel(x_ptr):
    pid = tl.program_id(0) * tl.num_programs(1) + tl.program_id(1)
    v = tl.load(x_ptr + pid)
    tl.device_assert(v != 13, "found 13")


def test_failing_assert_names_2d_program_id():
    x = torch.zeros(12, dtype=torch.int32)
    x[2 * 4 + 1] = 13  # program (2, 1) of a (3, 4) grid
    with pytest.raises(AssertionError) as info:
        assert_grid_kernel[(3, 4)](x, debug=True)
    assert "found 13" in str(info.value)
    assert "(2, 1, 0)" in str(info.value)


@triton.jit
def scalar_assert_kernel(x_ptr, limit):
    v = tl.load(x_ptr + tl.program_id(0))
    tl.device_assert(v < limit, "scalar over limit")
    assert v >= 0, "python assert becomes a device assert"


def test_scalar_and_python_asserts():
    x = torch.tensor([1, 2, 3], dtype=torch.int64)
    scalar_assert_kernel[(3, )](x, 10, debug=True)
    with pytest.raises(AssertionError) as info:
        scalar_assert_kernel[(3, )](x, 3, debug=True)  # only program 2 loads a value >= 3
    assert "scalar over limit" in str(info.value) and "(2, 0, 0)" in str(info.value)
    x = torch.tensor([1, -2, 3], dtype=torch.int64)
    with pytest.raises(AssertionError, match="python assert becomes a device assert"):
        scalar_assert_kernel[(3, )](x, 10, debug=True)
