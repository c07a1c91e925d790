"""tritium.ir: parse, print and run pipelines on TTIR/TTGIR text."""

import pathlib

import pytest

from tritium import ir

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "test" / "corpus"

TTIR = """module {
  tt.func public @k(%arg0: !tt.ptr<f32>) attributes {noinline = false} {
    %0 = tt.get_program_id x : i32
    %1 = tt.addptr %arg0, %0 : !tt.ptr<f32>, i32
    %2 = tt.load %1 : !tt.ptr<f32>
    tt.store %1, %2 : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_parse_and_print_round_trip():
    module = ir.parse(TTIR)
    assert ir.print_module(module).split() == TTIR.split()


def test_parse_reports_line_and_column():
    broken = TTIR.replace("tt.load %1 : !tt.ptr<f32>", "tt.load %1 : !tt.ptr<f32>, i32")
    with pytest.raises(ir.IRError) as info:
        ir.parse(broken)
    assert info.value.line == 5
    assert info.value.column > 0


def test_verifier_errors_are_reported():
    bad = TTIR.replace("%0 = tt.get_program_id x : i32", "%0 = tt.get_program_id x : i32\n"
                       "    %9 = tt.make_range {end = 4 : i32, start = 8 : i32} : tensor<4xi32>")
    with pytest.raises(ir.IRError, match="end must be greater than start"):
        ir.parse(bad)


def test_run_pipeline_lowers_to_linalg():
    lowered = ir.run_pipeline(ir.parse(TTIR), "builtin.module(convert-triton-to-linalg,canonicalize)")
    assert "func.func public @k" in str(lowered) and "tt." not in str(lowered)


def test_ttgir_parses():
    text = (CORPUS / "ttgir" / "sm80" / "dot__matmul_k_loop.ttgir").read_text()
    assert "ttg.async_copy_global_to_local" in str(ir.parse(text))


def test_bad_pipeline_is_an_error():
    with pytest.raises(ir.IRError):
        ir.run_pipeline(ir.parse(TTIR), "builtin.module(no-such-pass)")
