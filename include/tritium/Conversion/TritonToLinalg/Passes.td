//===- Passes.td - TTIR to linalg conversion passes -----------------------===//

#ifndef TRITIUM_CONVERSION_TRITONTOLINALG_PASSES
#define TRITIUM_CONVERSION_TRITONTOLINALG_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTritonToLinalg : Pass<"convert-triton-to-linalg", "mlir::ModuleOp"> {
  let summary = "Convert Triton IR (tt) to linalg/tensor/memref/scf with an explicit kernel ABI";
  let description = [{
    Every `tt.func` becomes a `func.func` whose pointer arguments are `!llvm.ptr`, followed by
    six `i32` arguments: the program id along x, y, z and the grid size along x, y, z.
    Tensors of pointers become tensors of `i64` addresses. Tensor compute becomes linalg
    (`linalg.matmul`, `linalg.reduce`, `linalg.transpose`, `linalg.generic`); elementwise
    arith/math on tensors stays as is for `convert-elementwise-to-linalg`.

    Loads and stores become loop nests over the tile whose body recomputes the address (and
    mask, and stored value) of each element from the index math that produced it, so that
    contiguous, strided and gathered accesses all take one path and later vectorize:

    ```mlir
    %p = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %q = tt.addptr %p, %offsets : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = tt.load %q : tensor<4x!tt.ptr<f32>>
    ```
    becomes
    ```mlir
    %buf = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %off = ...                        // offsets[i], recomputed from its definition
      %addr = llvm.getelementptr %arg0[%off] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %addr : !llvm.ptr -> f32
      memref.store %x, %buf[%i] : memref<4xf32>
    }
    %v = bufferization.to_tensor %buf restrict writable : memref<4xf32> to tensor<4xf32>
    ```
    An op without a lowering is reported with its name and location.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect", "mlir::linalg::LinalgDialect", "mlir::LLVM::LLVMDialect",
    "mlir::math::MathDialect", "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def CheckMemoryBounds : Pass<"check-memory-bounds", "mlir::ModuleOp"> {
  let summary = "Check every load, store and atomic against the tensor its pointer came from";
  let description = [{
    The bounds-checking mode. Each public `tt.func` gets a trailing `!tt.ptr<i64>` argument:
    a table whose slots 8 + 2k and 9 + 2k hold the valid byte range of argument k and whose
    first eight slots receive the first offending access (flag, argument, address, site,
    program id x/y/z). Every `tt.load`, `tt.store`, `tt.atomic_rmw`, `tt.atomic_cas`,
    `tt.atomic_load` and `tt.atomic_store` whose pointer derives from a pointer argument
    (through addptr, splat, broadcast, expand_dims, reshape, trans, bitcast, selects of one
    argument and loop-carried values) compares each lane's address with that range; lanes
    outside are masked off (an atomic_cas points them at a scratch slot) and the first is
    recorded. The module gets `tritium.memory_access_sites`, one `file:line:col: op` string
    per checked access, indexed by the recorded site. Pointers from anywhere else (loaded from
    memory, `tt.int_to_ptr`) are left unchecked.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def CarryPointerTileOffsetsAsScalars
    : Pass<"carry-pointer-tile-offsets-as-scalars", "mlir::ModuleOp"> {
  let summary = "Carry uniformly advancing pointer tiles through scf.for as one scalar offset";
  let description = [{
    A tile of pointers carried through a loop and advanced by a splat each iteration
    (`a_ptrs += BLOCK_K * stride`) is its initial tile plus one scalar. The loop carries that
    i64 element offset instead, and the tile is rebuilt as `tt.addptr %init, tt.splat %offset`
    where it is used, so that convert-triton-to-linalg recomputes each element's address from
    the index math rather than reading it back from a materialized tensor:

    ```mlir
    %r = scf.for %k = %lo to %hi step %c1 iter_args(%p = %init) -> (tensor<4x!tt.ptr<f32>>) {
      %v = tt.load %p : tensor<4x!tt.ptr<f32>>
      %q = tt.addptr %p, %step : tensor<4x!tt.ptr<f32>>, tensor<4xi32>   // %step = tt.splat %s
      scf.yield %q : tensor<4x!tt.ptr<f32>>
    }
    ```
    becomes a loop carrying `%off : i64` (yielding `%off + extsi(%s)`) whose body loads from
    `tt.addptr %init, tt.splat %off`. Tiles advanced by anything but splats are left alone.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def PeelFirstIterationsTestedInLoops
    : Pass<"peel-first-iterations-tested-in-loops", "mlir::ModuleOp"> {
  let summary = "Run apart the first iteration of an scf.for whose body tests for it";
  let description = [{
    Inductor's looped Welford reductions branch on `roffset == 0` in every iteration
    (`triton_helpers.welford_reduce`): a tensor-valued `scf.if` whose two arms yield different
    tiles, so the accumulators are copied each iteration instead of updated in place. A loop
    with constant lower bound and positive constant step whose body compares its induction
    variable with the lower bound (`arith.cmpi eq`/`ne`) runs its first iteration as a loop of
    its own (upper bound `min(ub, lb + step)`, so a loop that runs no iteration still runs
    none), where the comparison is known true, and the rest from `lb + step`, where it is known
    false; the branches on it fold away.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def UnitDimReshapesAsExpandDims : Pass<"unit-dim-reshapes-as-expand-dims", "mlir::ModuleOp"> {
  let summary = "A `tt.reshape` that inserts one dimension of size 1 becomes `tt.expand_dims`";
  let description = [{
    `tt.reshape %x : tensor<128xi64> -> tensor<128x1xi64>` (any element type; the result's
    shape the source's with one 1 inserted) keeps the elements' order, as
    `tt.expand_dims %x {axis = 1}` does, which the analyses of addresses follow. Triton's
    rewrite of tensor descriptors to pointers builds block offsets with such reshapes.
  }];
}

def IgnoreNaNInIndexReductions : Pass<"ignore-nan-in-index-reductions", "mlir::ModuleOp"> {
  let summary = "argmin/argmax (Triton's value-index combiner) pick the best non-NaN value";
  let description = [{
    In a two-operand (float value, integer index) `tt.reduce` whose combiner is built as
    Triton's `_argmax_combine`/`_argmin_combine` are (comparisons, boolean logic, selects; no
    NaN test of its own), the strict comparison `left > right` (`<`) becomes
    `(left >u right) and ordered(left, left)`: a NaN never wins and a number always beats a
    NaN, whatever the order of the tree, as Triton's interpreter (numpy's nanargmax) answers.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def RecognizeNaNPropagatingMinMaxCombiners
    : Pass<"recognize-nan-propagating-min-max-combiners", "mlir::ModuleOp"> {
  let summary = "Reduce with maximumf/minimumf where a combiner selects the larger value or a NaN";
  let description = [{
    A one-operand float `tt.reduce` whose combiner is `select((a > b) | (a != a), a, b)`
    (Inductor's `triton_helpers.maximum`; `<` for its `minimum`) gets the combiner
    `arith.maximumf(a, b)` (`minimumf`). They agree on every pair but two: between +0 and -0
    the select answers its right operand where maximumf answers +0 (minimumf -0), and of two
    NaNs it keeps the left one's payload; a reduction's order decides both anyway. As one op
    with an identity (-inf, +inf) the reduction runs in one vectorized pass over the axis (and
    can read its input where it is loaded) instead of a tree of neighbouring pairs.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def AccumulateHalfFloatsInF32 : Pass<"accumulate-half-floats-in-f32", "mlir::ModuleOp"> {
  let summary = "Sum and multiply f16/bf16 tiles in f32 (tt.reduce, tt.scan), rounding once";
  let description = [{
    A `tt.reduce` or `tt.scan` of one f16 or bf16 operand whose combiner is a single `addf` or
    `mulf` gets its input converted to f32 (`arith.extf`), its combiner retyped to f32 and its
    result rounded back (`arith.truncf`): `tl.sum` of 1024 bf16 ones is 1024, where adding in
    bf16 element after element stops at 256. Other combiners (max, min, argmax, user
    functions) are left as they are: they do not round or are the user's to type.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ElementwiseFunctionsToMathOps
    : Pass<"elementwise-functions-to-math-ops", "mlir::ModuleOp"> {
  let summary = "precise_sqrt/divf and libdevice functions the CPU vectorizes become math/arith ops";
  let description = [{
    A pure `tt.extern_elementwise` of a C math function (`expf`, `__nv_expf`, `sqrt`, ...)
    that the CPU target computes with vector instructions (f32 exp, exp2, expm1, log, log1p,
    log2, tanh, erf; f32/f64 sqrt, fabs, floor, ceil, trunc, rint, copysign, fma) becomes the
    math op, of the same operand and result types:

    ```mlir
    %e = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "expf"}
        : (tensor<1024xf32>) -> tensor<1024xf32>
    ```
    becomes `%e = math.exp %x : tensor<1024xf32>`. An elementwise op is recomputed where its
    elements are used (stream-loads-into-stores) and common subexpressions merge; a call is a
    tile of its own. Other functions stay calls. `tt.precise_sqrt` becomes `math.sqrt`,
    `tt.precise_divf` and `tt.approx_divf` become `arith.divf` (IEEE on a CPU).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def TransposeTilesToMemoryOrder
    : Pass<"transpose-tiles-to-memory-order", "mlir::ModuleOp"> {
  let summary = "Transpose a kernel's 2-D tiles whose accesses run along memory in their first dimension";
  let description = [{
    Tiles are visited in row-major order, their last dimension innermost. When a function's
    2-D loads and stores that are contiguous along one dimension (stride 1 in elements, found
    from the affine index math of their pointer tiles) are all contiguous along the first,
    as in Inductor's reductions over a tensor's outer dimension (`x + 512 * r` over
    [XBLOCK, R0_BLOCK] tiles), and its 2-D tiles only pass through elementwise ops, splats,
    broadcasts, expand_dims, addptr, reductions, loads, stores and `scf.for`/`scf.if`, every
    2-D tile type [M, N] becomes [N, M] and the axes of `tt.expand_dims` and `tt.reduce` on
    2-D tiles swap:

    ```mlir
    %x = tt.expand_dims %xr {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ... : (tensor<64x4xf32>) -> tensor<64xf32>
    ```
    become `tensor<1x64xi32>` with `axis = 0` and a reduction of `tensor<4x64xf32>` along
    axis 0. Every element keeps its pointer, mask and value; the loops over a tile then run
    along memory. Kernels with tiles of higher rank, layout encodings, calls, tiles in their
    signature or 2-D tiles through any other op are left as they are.
  }];
}

def StreamLoadsIntoStores : Pass<"stream-loads-into-stores", "mlir::ModuleOp"> {
  let summary = "Mark tile loads that convert-triton-to-linalg may read inside their stores' loops";
  let description = [{
    A tile load whose every use is recomputed per element (broadcasts, expand_dims, addptr,
    pure elementwise arith/math) and ends in `tt.store`s or in `tt.reduce`s that fold element
    by element (one operand, a combiner with an identity), in the same block with nothing that
    may write memory in between, gets the unit attribute `tritium.read_at_use`, and so do those
    reductions. convert-triton-to-linalg then loads its elements inside the store and reduction
    loops instead of into a buffer. A costly value (math function, division) on the way that
    more than one loop would compute (two reductions, or a reduction and the stores) keeps
    the load as it is (it is better computed once into a tile):

    ```mlir
    %x = tt.load %xp, %m : tensor<1024x!tt.ptr<f32>>
    %y = tt.load %yp, %m : tensor<1024x!tt.ptr<f32>>
    %s = arith.addf %x, %y : tensor<1024xf32>
    tt.store %op, %s, %m : tensor<1024x!tt.ptr<f32>>
    ```
    marks both loads, and the store's loop loads `x[i]` and `y[i]`, adds and stores: one pass
    over memory. A store into the load's own base pointer through a different pointer tile
    keeps the load as it is (elements it moves must be read before any is written).

    A use may also end in the `scf.yield` of an `scf.for` that carries a tile (`acc =
    tl.where(mask, acc + x, acc)`, Inductor's looped reductions): the cheap elementwise op
    whose result is yielded gets `tritium.computed_per_element`, provided the carried tile
    reaches it only through elementwise ops (each element of it read at the index being
    computed). convert-triton-to-linalg then computes that op element by element over the
    carried tile, in place, loading `x` where it is added.

    Tile stores of one shape separated only by side-effect-free ops are first moved next to
    each other and the first gets `tritium.store_group = N` (N stores): convert-triton-to-linalg
    writes them in one loop whose iterations compute every stored element before storing any.
    Their loads are read once for all of them, and a costly value several ops of one such
    loop use is computed once per element there (it no longer keeps its load in a tile). Two
    stores of a group into one base pointer must use the same pointer tile.
  }];
}

def VerifyLinalgContract : Pass<"verify-linalg-contract", "mlir::ModuleOp"> {
  let summary = "Reject anything outside the linalg stage's device-neutral contract";
  let description = [{
    The linalg stage is what a device target consumes (docs/new-device.md). This pass checks
    that a module holds only that: ops of the builtin, func, arith, math, scf, linalg, tensor,
    memref, bufferization and ub dialects and the LLVM dialect's pointer ops (getelementptr,
    load, store, atomicrmw, cmpxchg, extractvalue, inttoptr, ptrtoint, mlir.global,
    mlir.addressof, mlir.constant/zero/undef/poison, intr.assume); values of signless
    integers (i1, i8, i16, i32, i64; i128 for 64-bit high products), f16/bf16/f32/f64, the fp8 formats, index, `!llvm.ptr`
    and tensors/memrefs of those; one public kernel function whose arguments are pointers and
    scalars followed by the six `i32` of the grid (program id x, y, z; grid size x, y, z) and
    which returns nothing; other functions private, either defined in the module or one of the
    device runtime functions. Each violation is an error at the op that commits it.
  }];
}

#endif // TRITIUM_CONVERSION_TRITONTOLINALG_PASSES
