"""argmin/argmax (tl.argmax, tl.max(..., return_indices=True)) over rows holding NaN, infinities, ties and
masked-off padding answer as Triton's interpreter does (numpy's nanargmax/nanargmin): the index of the best
non-NaN value, the leftmost among ties with tie_break_left."""

import itertools

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

VALUES = [1.0, float("nan"), 3.0, -1.0, float("inf"), float("-inf")]
ROWS = [row for row in itertools.product(VALUES, repeat=3) if not all(np.isnan(row))]


@triton.jit
def index_reductions_kernel(x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr, LEFT: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    # masked-off lanes hold the value that can never be chosen over a real one (a GPU kernel's padding)
    for_max = tl.load(x_ptr + row * N + offs, mask=offs < N, other=-float("inf"))
    for_min = tl.load(x_ptr + row * N + offs, mask=offs < N, other=float("inf"))
    _, imax = tl.max(for_max, 0, return_indices=True, return_indices_tie_break_left=LEFT)
    _, imin = tl.min(for_min, 0, return_indices=True, return_indices_tie_break_left=LEFT)
    tl.store(out_ptr + row * 2, imax)
    tl.store(out_ptr + row * 2 + 1, imin)


def numpy_answer(row, padding, pick):
    """numpy's nan-arg function, or None where numpy answers a NaN's index because the best number is the
    infinity it puts in place of NaN (there the first of the tied numbers is as right)."""
    values = np.array(row + (padding, ))
    best = pick(values)
    if np.isnan(values[best]):
        return None
    return best


@pytest.mark.parametrize("left", [True, False], ids=["tie_break_left", "tie_break_fast"])
def test_every_row_of_nan_inf_and_ties(left):
    x = torch.tensor(ROWS, dtype=torch.float32)
    out = torch.empty(len(ROWS), 2, dtype=torch.int32)
    index_reductions_kernel[(len(ROWS), )](x, out, N=3, BLOCK=4, LEFT=left)
    wrong = []
    for row, (imax, imin) in zip(ROWS, out.tolist()):
        for got, padding, pick, best in ((imax, -np.inf, np.nanargmax, np.nanmax), (imin, np.inf, np.nanargmin,
                                                                                     np.nanmin)):
            expected = numpy_answer(row, padding, pick)
            values = np.array(row + (padding, ))
            if expected is None:  # the padding ties with the best number: only the fast tie-break may take it
                ok = values[got] == best(values) and (got < 3 or not left)
            elif left:
                ok = got == expected
            else:  # any index of the best value (a GPU's fast tie-break is arbitrary)
                ok = got < 4 and values[got] == values[expected]
            if not ok:
                wrong.append((row, pick.__name__, got, expected))
    assert not wrong, wrong[:10]


@triton.jit
def argmax_rows_kernel(x_ptr, out_ptr, COLS: tl.constexpr):
    row = tl.program_id(0)
    tl.store(out_ptr + row, tl.argmax(tl.load(x_ptr + row * COLS + tl.arange(0, COLS)), 0))


def test_nan_anywhere_in_a_long_row():
    """A NaN at each position of a 256-wide row never wins, whichever level of the tree it meets."""
    g = torch.Generator().manual_seed(31)
    x = torch.randn(256, 256, generator=g)
    x[torch.arange(256), torch.arange(256)] = float("nan")
    out = torch.empty(256, dtype=torch.int32)
    argmax_rows_kernel[(256, )](x, out, COLS=256)
    expected = torch.from_numpy(np.nanargmax(x.numpy(), axis=1)).to(torch.int32)
    assert torch.equal(out, expected)
