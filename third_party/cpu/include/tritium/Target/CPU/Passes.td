//===- Passes.td - passes of the CPU target -------------------------------===//

#ifndef TRITIUM_TARGET_CPU_PASSES
#define TRITIUM_TARGET_CPU_PASSES

include "mlir/Pass/PassBase.td"

def InterchangeMatmulLoops : Pass<"tritium-cpu-interchange-matmul-loops", "mlir::func::FuncOp"> {
  let summary = "Generalize matmuls and order their loops (m, k, n) so the innermost loop "
                "walks rows of B and C contiguously";
  let description = [{
    `linalg.matmul` lowered as is puts the reduction innermost, which reads B down a column
    and cannot vectorize without reassociating the sum. With (m, k, n) order each step of
    the inner loop is an independent multiply-add across a row:

    ```mlir
    %d = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                       outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```
    becomes a `linalg.generic` with iterator types `["parallel", "reduction", "parallel"]`
    and indexing maps `(m, k, n) -> (m, k)`, `(m, k, n) -> (k, n)`, `(m, k, n) -> (m, n)`.
    Batched matmuls become (b, m, k, n).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def ExpandMathLikeNumPy : Pass<"tritium-cpu-expand-math-like-numpy"> {
  let summary = "Compute f32 exp, log, sin and cos with numpy's float32 algorithms";
  let description = [{
    Triton's interpreter evaluates `tl.exp`, `tl.log`, `tl.sin` and `tl.cos` with numpy.
    Replaying numpy's float32 algorithms (its SIMD loops on x86 hosts with FMA3) operation
    for operation gives the same bits, so kernels such as `tl.randn` match the interpreter:
    `%y = math.log %x : f32` becomes mantissa/exponent extraction, a rational approximation
    by fused multiply-adds and special-value selects. sin and cos keep the math op (a libm
    call) for |x| beyond their reduction range, as numpy does: under `scf.if` for scalars,
    by `arith.select` for shaped values. With `exp=false`, exp is left to
    tritium-cpu-expand-math-to-polynomials (numpy's exp divides once per element).
  }];
  let options = [
    Option<"includeExp", "exp", "bool", /*default=*/"true",
           "Expand exp as numpy does (off: leave it to the division-free polynomial)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect"];
}

def ExpandMathToPolynomials : Pass<"tritium-cpu-expand-math-to-polynomials"> {
  let summary = "Replace f32 transcendental math ops by polynomial approximations";
  let description = [{
    `math.exp`, `math.log`, `math.tanh`, `math.erf`, ... on f32 (and narrower floats, via
    f32) become sequences of arith ops that LLVM vectorizes, instead of scalar libm calls:
    `%y = math.exp %x : f32` becomes range reduction plus a polynomial in arith.
    With `ldexp-scaling`, f32 `exp`/`exp2` apply their power of two with `llvm.intr.ldexp`,
    which LLVM vectorizes and lowers to one `vscalefps` where the host has AVX-512; without
    it, as two exact multiplications by powers of two built from integer bits. The pipeline
    sets the option from the host.
  }];
  let options = [
    Option<"ldexpScaling", "ldexp-scaling", "bool", /*default=*/"false",
           "Scale exp/exp2 results with llvm.intr.ldexp (one vscalefps on AVX-512 hosts)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect", "mlir::LLVM::LLVMDialect"];
}

def AddKernelEntry : Pass<"tritium-cpu-add-kernel-entry", "mlir::ModuleOp"> {
  let summary = "Add the uniform entry point the CPU launcher calls for each kernel";
  let description = [{
    For every public `func.func @k(args..., pid x, y, z, grid x, y, z)` adds

    ```mlir
    func.func @k__entry(%args: !llvm.ptr, %pid_x: i32, %pid_y: i32, %pid_z: i32,
                        %grid_x: i32, %grid_y: i32, %grid_z: i32)
    ```
    which reads argument i from the 8-byte slot `args[i]` and calls `@k`, then makes `@k`
    private so LLVM inlines it. The launcher thus needs no per-signature code.
  }];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::LLVM::LLVMDialect"];
}

def CopiesToLinalg : Pass<"tritium-cpu-copies-to-linalg"> {
  let summary = "Turn memref.copy into linalg.copy, so copies become loops instead of calls";
  let description = [{
    A `memref.copy` between non-contiguous views lowers to a call of MLIR's C runner
    library, which a JIT-loaded kernel does not have:
    `memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>` becomes
    `linalg.copy ins(%a : ...) outs(%b : ...)`, which convert-linalg-to-loops lowers inline.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def CopyContiguousRowsAsMemcpy
    : Pass<"tritium-cpu-copy-contiguous-rows-as-memcpy", "mlir::func::FuncOp"> {
  let summary = "Copy tiles whose rows are contiguous a row at a time with memcpy";
  let description = [{
    A static `linalg.copy` of rank >= 2 whose source and destination both have unit-stride
    rows of 16 to 256 bytes (what LLVM inlines as at most 8 vector moves) becomes loops over the rows, each a `memref.copy` of the two
    rows as 1-D contiguous views: `llvm.memcpy` of a known size, which LLVM inlines as vector
    moves. As loops of scalar loads and stores, a short row is unrolled fully and then not
    vectorized (the two buffers might overlap), one scalar move per element.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def PromoteTileBuffersToStack
    : Pass<"tritium-cpu-promote-tile-buffers-to-stack", "mlir::func::FuncOp"> {
  let summary = "Allocate a kernel's small, statically shaped tile buffers on the stack";
  let description = [{
    Tile buffers (loaded tiles, results of reductions and elementwise ops) are allocated once
    per program. On the heap that is a malloc and a free per buffer per program; on the stack
    it is nothing. Every `memref.alloc` of a static shape in the function's entry block (once
    per call, after buffer loop hoisting) whose buffer does not leave the function becomes a
    `memref.alloca`, while each buffer stays within `max-buffer-bytes` and all of them within
    `max-function-bytes`:
    `%b = memref.alloc() : memref<1024xf32>` becomes `%b = memref.alloca() : memref<1024xf32>`.
    A buffer allocated inside a loop or a branch whose views are never yielded, passed to a
    call or turned into a tensor or pointer (it dies with its iteration) becomes an alloca at
    the top of the entry block, one slot every iteration reuses. Runs before deallocations are
    inserted.
  }];
  let options = [
    Option<"maxBufferBytes", "max-buffer-bytes", "int64_t", /*default=*/"65536",
           "The largest buffer promoted">,
    Option<"maxFunctionBytes", "max-function-bytes", "int64_t", /*default=*/"262144",
           "The most stack a function's promoted buffers take together">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def ReadTilesInPlace : Pass<"tritium-cpu-read-tiles-in-place", "mlir::ModuleOp"> {
  let summary = "Matmuls and transposes read their operand tiles where they lie (or from a copy made once a launch) when a tile is an unmasked strided block";
  let description = [{
    For a `linalg.matmul` operand (lhs; rhs when its rows are at most twice its width apart) or
    a `linalg.transpose` input that is `bufferization.to_tensor` of a 2-D f32/f64 tile buffer
    (for a matmul operand also bf16/fp16, loaded as i16 and bitcast, in row-major blocks only)
    filled by a loop nest (or the first branch of an `scf.if` around it) that loads
    `base + i * stride + j` under a conjunction of signed comparisons: where the comparisons
    hold and no narrower-than-i64 index value leaves its type at the tile's four corners
    (linear functions take their extremes there), the consumer reads a strided view of the
    operand (`memref<MxKxT, strided<[?, 1]>>` from an LLVM memref descriptor); otherwise the
    fill runs as before. `scf.if %in_place -> memref<..., strided<[?, 1]>> { view } else
    { fill; memref.cast %buffer }`, then `bufferization.to_tensor ... restrict`. A column-major
    block (`base + i + j * stride`: a transposed A, `x @ w.t()`'s B) keeps its buffer, filled by
    `linalg.transpose` of a `memref<KxMxT, strided<[?, 1]>>` view under the same conditions.

    A matmul operand tile of at least 4 KB that is not read in place (rows more than twice the
    tile's width apart, or column-major) is read from the calling thread's copy of it instead,
    when the kernel stores nothing before or around the fill and uses no atomics or fences:
    `func.call @tritium_cached_operand_tile(first, row stride, rows, columns, element bytes,
    layout, fill flag)` (OperandTileCache.h), then, if it gave a copy, `linalg.copy` (or
    `linalg.transpose`) of the view into it when the flag says it is new; where it gave none,
    A is read in place and B is copied into its buffer. Programs of a launch share the copies
    their thread made; a launch never reads another's.

    With `amx-bf16` / `amx-int8`, the B tile of a matmul that
    tritium-cpu-pack-matmuls-for-amx will give to AMX tiles (`isAMXMatmul`) is cached in
    AMX's packed layout instead (layout 2: [K/g, N, g], g = 2 bf16 or 4 int8 K neighbours),
    whether or not its rows are close together: the copy is the pack every program would
    otherwise do. Where the cache gives no copy the tile is packed into a buffer of its own.
    The matmul reads it through a `linalg.generic` marked `tritium.unpacked_amx_tile` that
    unpacks it, which the pack pass takes back. A tile whose `linalg.transpose` is B of such a
    matmul (`tl.trans(k)` in attention) is cached as that B packed (layout 3), and the
    generic replaces the transpose; so is a column-major B tile (`x @ w.t()`), packed from
    the rows of its transposed view. With `amx-int8`, the int8 A tile of such a matmul is read
    in place (or from the cached copy) like a bf16 one. With `amx-bf16`, an fp8 tile widened
    to bf16 (`arith.extf`, tritium-cpu-float8-matmuls-as-bf16) as an operand of such a matmul
    is decoded into the thread's cached copy (layout 16 + 2 x the format's number, B also
    packed: +1) when new, or from the view into a buffer of its own where the cache gives
    none; the matmul reads the decoded tile and the widening goes.
  }];
  let options = [
    Option<"amxBF16", "amx-bf16", "bool", /*default=*/"false",
           "Cache the B tiles of bf16 matmuls AMX tiles compute packed">,
    Option<"amxInt8", "amx-int8", "bool", /*default=*/"false",
           "Cache the B tiles of int8 matmuls AMX tiles compute packed">,
    Option<"dotProductBF16", "dot-product-bf16", "bool", /*default=*/"false",
           "Cache the B tiles of bf16 matmuls vdpbf16ps computes packed">,
    Option<"dotProductInt8", "dot-product-int8", "bool", /*default=*/"false",
           "Cache the B tiles of int8 matmuls vpdpbusd computes packed">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::func::FuncDialect", "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def SplitLoopsAtMaskBounds
    : Pass<"tritium-cpu-split-loops-at-mask-bounds", "mlir::func::FuncOp"> {
  let summary = "Run the iterations in which a tile's mask is true as a loop without the test";
  let description = [{
    The loop of a masked load or store tests `offset + i < n` in every iteration. For an
    `scf.for` (constant bounds, step 1, at least 8 iterations) whose body compares
    `offset + index_cast(iv)` (or the cast alone) with a loop-invariant bound by `slt`/`sle`
    (or the swapped `sgt`/`sge`), the iterations before clamp(n - offset, lb, ub) become a loop
    of their own in which the comparison is the constant `true`; the original loop runs the
    rest, carrying on from the prefix's results. The prefix also ends before `offset + i`
    could wrap around in its integer type. Loops of fewer than 256 iterations keep constant
    bounds: `scf.if` runs the copy without the test when that end is the upper bound, the
    original loop otherwise.
    `scf.for %i = %c0 to %c1024 step %c1 { ... arith.cmpi slt, %o_plus_i, %n ... }` becomes
    `scf.for %i = %c0 to %end { ... true ... }` then `scf.for %i = %end to %c1024 { ... }`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def StripMineLoopsAtDivisionPeriods
    : Pass<"tritium-cpu-strip-mine-loops-at-division-periods", "mlir::func::FuncOp"> {
  let summary = "Run a loop that divides its index by a period as strips between multiples of it";
  let description = [{
    In an `scf.for` with step 1 whose body computes `index // C` or `index % C` (`divsi`,
    `remsi`, `divui`, `remui`) of `index = offset + index_cast(iv)` by a loop-invariant C (not
    a constant below 16), the iterations are regrouped into strips between consecutive
    multiples of C: in each strip the quotient is the strip's number q, a loop invariant, and
    the remainder is `index - q*C`, so accesses through them become a uniform value and
    consecutive vectors instead of gathers. The whole strips between the first and the last
    multiple of C run as loops of C iterations, when, checked once before the loop, every index
    is in [0, 2^(w-1)), the loop's bounds are in [0, 2^31) and C >= 16, between the parts of the
    strips the loop starts and ends in; otherwise the loop runs as it was (`scf.if`). A test of the
    remainder against a bound outside the strip (`x % C < B`) splits the strip's loop where the
    test changes, into loops in which it is a constant.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def UpdateLoopCarriedTilesInPlace
    : Pass<"tritium-cpu-update-loop-carried-tiles-in-place", "mlir::func::FuncOp"> {
  let summary = "Write elementwise updates of a loop-carried tile over that tile";
  let description = [{
    An elementwise `linalg.generic` inside `scf.for` whose result becomes the next value of an
    iter_arg it reads (`acc = acc + x`) gets that iter_arg as its output instead of a
    `tensor.empty`, so that bufferization updates the accumulator in place rather than
    allocating a buffer per iteration:
    `linalg.generic ins(%acc, %x) outs(%empty)` becomes `linalg.generic ins(%acc, %x) outs(%acc)`.
    Runs before bufferization.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def MoveReadersBeforeInPlaceUpdates
    : Pass<"tritium-cpu-move-readers-before-in-place-updates", "mlir::func::FuncOp"> {
  let summary = "Read a loop-carried tile's old value before the op that updates it in place";
  let description = [{
    In the body of an `scf.for`, the op that computes a tensor iter_arg's next value (the
    yielded value's defining op, when it uses the iter_arg) is the tile's in-place update. An op
    after it that also reads the iter_arg's old value (Inductor's Welford: `m2` computed from
    the `mean` the previous op updated) would make bufferization give the update a new buffer
    in every iteration. Such a reader moves to just before the update when every value it uses
    is available there, it writes no memory, and, if it reads memory, no op it passes writes
    any. Runs before bufferization.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def StoreBoolAndBFloat16AsIntegers
    : Pass<"tritium-cpu-store-bool-and-bf16-as-integers", "mlir::ModuleOp"> {
  let summary = "Store i1 buffers as i8 (one byte per element) and bf16 buffers as i16 bits";
  let description = [{
    LLVM's memref lowering does not store sub-byte elements, and without AVX512-BF16 LLVM
    rounds every bf16 it stores through a helper call. Every `memref<...xi1>` becomes
    `memref<...xi8>` (loads truncate, stores zero-extend) and every `memref<...xbf16>` becomes
    `memref<...xi16>` (loads and stores reinterpret the bits):
    `memref.store %b, %m[%i] : memref<8xi1>` becomes
    `%w = arith.extui %b : i1 to i8` then `memref.store %w, %m[%i] : memref<8xi8>`, and
    `memref.store %h, %n[%i] : memref<8xbf16>` becomes
    `%w = arith.bitcast %h : bf16 to i16` then `memref.store %w, %n[%i] : memref<8xi16>`.
    Runs on loops (after convert-linalg-to-loops). bf16 buffers that vector ops access stay.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"];
}

def DivideByInvariantsAsMultiplies : Pass<"tritium-cpu-divide-by-invariants-as-multiplies"> {
  let summary = "32-bit division by a loop-invariant value as a multiply by a magic number";
  let description = [{
    Kernels compiled for symbolic shapes divide indices by sizes known only at run time
    (`xindex // ks1`); x86 has no vector integer division. Where the divisor of an i32
    `arith.divsi`/`divui`/`remsi`/`remui` is defined outside every loop around it, the
    multiplier and shifts of Granlund and Montgomery's round-up method are computed once
    before the loops and each division becomes a 64-bit multiply, shifts and adds; exact for
    every dividend, a zero divisor divides by one.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def GuardIntegerDivision : Pass<"tritium-cpu-guard-integer-division"> {
  let summary = "Make integer division total: x86 traps where GPUs return garbage";
  let description = [{
    Masked-off lanes of a tile are still computed, and a zero (or INT_MIN / -1) there would
    kill the process with SIGFPE. Divisors of zero become 1, and INT_MIN / -1 divides by 1
    (the wrapped result, INT_MIN, and remainder 0):
    `%q = arith.divsi %x, %y : i32` becomes
    `%safe = arith.select %isZeroOrOverflow, %c1, %y` then `arith.divsi %x, %safe`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ExpandBFloat16Conversions : Pass<"tritium-cpu-expand-bf16-conversions"> {
  let summary = "Convert to and from bf16 with integer arithmetic";
  let description = [{
    On CPUs with AVX512-BF16, LLVM converts f32 to bf16 with an instruction that flushes
    subnormal inputs to zero. `arith.truncf %x : f32 to bf16` becomes round-to-nearest-even on
    the bits (`arith.extf` from bf16 becomes a shift), which is exact for every input;
    `arith.negf` on bf16 flips the sign bit; `arith.sitofp`/`uitofp` of integers wider than 24
    bits to bf16 round to odd at 24 bits first, so that they are rounded once; `math.fma` on
    bf16 and f16 is computed exactly in f64 and rounded to odd on the way down, also rounding
    once (whether or not the CPU has FP16 arithmetic).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def Float8MatmulsAsBFloat16 : Pass<"tritium-cpu-float8-matmuls-as-bf16", "mlir::func::FuncOp"> {
  let summary = "On AMX-BF16 hosts, compute matmuls of fp8 operands as bf16 ones (exactly)";
  let description = [{
    A `tl.dot` of fp8 operands reaches the CPU as a matmul of operands widened to f32. Every
    value of the five fp8 formats is a bf16 value as well (at most 5 exponent and 3 mantissa
    bits; the smallest subnormal, 2^-17, is a normal bf16), so with `amx-bf16` the operands
    are widened to bf16 instead, and a matmul whose shape fits AMX tiles (M and N multiples
    of 16, K of 32) runs on them like any bf16 x bf16 -> f32 product:

    ```mlir
    %a32 = arith.extf %a : tensor<32x64xf8E5M2> to tensor<32x64xf32>
    %b32 = arith.extf %b : tensor<64x32xf8E5M2> to tensor<64x32xf32>
    %d = linalg.matmul ins(%a32, %b32 : ...) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    ```
    becomes the same matmul of `arith.extf %a : ... to tensor<32x64xbf16>` and of `%b`'s.
    Other shapes, and hosts without AMX-BF16 (whose bf16 products are slower than f32 ones),
    keep the f32 matmul. It runs before tritium-cpu-read-tiles-in-place, which decodes such
    operand tiles once a launch.
  }];
  let options = [
    Option<"amxBF16", "amx-bf16", "bool", /*default=*/"false",
           "The host's AMX tiles compute bf16 matmuls">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect"];
}

def ExpandFloat8Conversions : Pass<"tritium-cpu-expand-fp8-conversions"> {
  let summary = "Convert to and from the 8-bit float formats with integer arithmetic";
  let description = [{
    LLVM has no 8-bit float types: values of `f8E4M3FN`, `f8E5M2`, `f8E4M3FNUZ`,
    `f8E5M2FNUZ` and `f8E4M3B11FNUZ` live as i8.
    Conversions become bit arithmetic with the semantics of Triton's GPU conversions:
    round to nearest even (or toward zero when `arith.truncf` says so), values beyond the
    largest finite number saturate to it, NaN stays NaN where the format has one.

    ```mlir
    %y = arith.truncf %x : f32 to f8E4M3FN
    ```
    becomes integer ops on `arith.bitcast %x : f32 to i32` ending in
    `arith.bitcast %b : i8 to f8E4M3FN`. Integer-to-fp8 goes through f64, fp8-to-integer
    through f32. The pass runs before any canonicalization could fold an fp8 conversion of a
    constant with different rounding.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def MatmulsToDotProductInstructions
    : Pass<"tritium-cpu-matmuls-to-dot-product-instructions", "mlir::func::FuncOp"> {
  let summary = "Compute bf16 and int8 matmuls with the host's dot-product instructions";
  let description = [{
    With `avx512-bf16`, a static `linalg.matmul` of bf16 operands into f32 becomes loops over
    register blocks of C summed with `vdpbf16ps` (pairs along K); with `avx512-vnni`, an
    int8 x int8 -> int32 one with `vpdpbusd` (quads along K, A biased to unsigned and the
    bias subtracted from C first). Both operands are packed into 32-bit words of K neighbours
    once per matmul (B not again when tritium-cpu-read-tiles-in-place read its tile packed).
    M must divide a block of 2-8 rows, N one of 16 or 32 columns and K the group size; other
    matmuls are left alone. Matmuls accumulating into one another (nothing else reading the
    sums between them) are one loop nest whose C blocks sum every product between one load
    and one store; an `scf.for` whose int8 matmul updates an iter_arg with fewer than 64 K
    groups is unrolled first (remainder in an epilogue loop) so that its iterations form such a
    chain, and the operand tile cache's lookup windows are bounded again. The pipeline sets
    the options from the host.
  }];
  let options = [
    Option<"avx512BF16", "avx512-bf16", "bool", /*default=*/"false",
           "Use vdpbf16ps (AVX512-BF16) for bf16 matmuls">,
    Option<"avx512VNNI", "avx512-vnni", "bool", /*default=*/"false",
           "Use vpdpbusd (AVX512-VNNI) for int8 matmuls">,
    Option<"amxBF16", "amx-bf16", "bool", /*default=*/"false",
           "Leave the bf16 matmuls AMX tiles take (tritium-cpu-pack-matmuls-for-amx) alone">,
    Option<"amxInt8", "amx-int8", "bool", /*default=*/"false",
           "Leave the int8 matmuls AMX tiles take alone">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect", "mlir::LLVM::LLVMDialect"];
}

def PackMatmulsForAMX : Pass<"tritium-cpu-pack-matmuls-for-amx", "mlir::func::FuncOp"> {
  let summary = "Give bf16 and int8 matmuls the operand layout of AMX's tile instructions";
  let description = [{
    AMX's `tdpbf16ps` and `tdpbssd` multiply a 16-row tile of A by a tile of B whose rows hold
    pairs (bf16) or quads (int8) of K neighbours of each column. A static `linalg.matmul` of
    bf16 into f32, or of int8 into int32 (signed), with M and N multiples of 16 and K of 32
    (bf16) or 64 (int8) becomes a `linalg.generic` over (m, n, K group, position in group)
    marked `tritium.amx_tiles`, reading A as [M, K/g, g] (a view) and B packed once per
    matmul as [K/g, N, g] (a transpose; none when B is the unpacked form of a tile
    tritium-cpu-read-tiles-in-place read packed), or, when B is `linalg.transpose` of x [N, K]
    (`tl.trans(k)`), as 32-bit words of g K neighbours [K/g, N] built along x's rows and
    transposed as words. The generic computes the matmul as written:
    tritium-cpu-matmuls-to-amx-tiles turns it into tile instructions after bufferization, and
    it runs as loops if that pass cannot. Other matmuls are left alone. The pipeline runs it
    after elementwise fusion (which would fuse an operand's conversion into the generic); the
    dot-product and widening passes before it leave these matmuls alone.
  }];
  let options = [
    Option<"bf16", "bf16", "bool", /*default=*/"false", "Pack bf16 matmuls (AMX-BF16)">,
    Option<"int8", "int8", "bool", /*default=*/"false", "Pack int8 matmuls (AMX-INT8)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def MergeAMXMatmulsAcrossKIterations
    : Pass<"tritium-cpu-merge-amx-matmuls-across-k-iterations", "mlir::func::FuncOp"> {
  let summary = "Unroll a K loop around an AMX tile generic and sum its products in one generic";
  let description = [{
    A `tritium.amx_tiles` generic that updates a loop's iter_arg (`acc = tl.dot(a, b, acc)`
    in a kernel's K loop) with fewer than 8 tile steps (K < 256 bf16, < 512 int8) leaves the
    tile pass a short K run for every load and store of the C tiles. The loop is unrolled
    (`scf` unroll by a factor, remainder in an epilogue loop) so that the unrolled iterations
    have 8 steps between them, and the chain of their generics becomes one generic over the
    same (m, n, K group, position) whose inputs are every iteration's A and packed B and whose
    body adds each product to C. Generics whose accumulator is anything else (attention's
    `acc * correction`) are left alone.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def MatmulsToAMXTiles : Pass<"tritium-cpu-matmuls-to-amx-tiles", "mlir::func::FuncOp"> {
  let summary = "Compute the matmuls tritium-cpu-pack-matmuls-for-amx marked with AMX tiles";
  let description = [{
    On buffers: each 32x32 (or 16x16) block of C is held in AMX tile registers while K is
    summed 32 bf16 or 64 int8 values at a time, one `amx.tile_load` for each 16-row tile of A
    and of packed B and one `amx.tile_mulf`/`amx.tile_muli` for each 16x16 tile of C; the C
    tiles return to memory every 8 steps of K. A is read where it lies when its rows are
    contiguous (checked at run time when its layout does not say), else from a copy. When C is
    a buffer of the function's own that only a zero fill (`memref.copy` of an all-zero
    constant, `linalg.fill` of zero) touches before the generic, the first run of K starts
    its C tiles from `amx.tile_zero` and the fill is erased.
  }];
  let dependentDialects = ["mlir::amx::AMXDialect", "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect"];
}

def WidenMatmulOperands : Pass<"tritium-cpu-widen-matmul-operands", "mlir::func::FuncOp"> {
  let summary = "Compute matmuls of 16- and 8-bit operands in f32, rounding once per result";
  let description = [{
    A `linalg.matmul` or `linalg.batch_matmul` on tensors whose operands are bf16, fp16 or
    fp8 (already widened to the accumulator), or whose accumulator is fp16, converts its
    operand tiles to f32 once, multiplies in f32 and rounds the result to the accumulator's
    type once:

    ```mlir
    %d = linalg.matmul ins(%a, %b : tensor<8x4xbf16>, tensor<4x16xbf16>)
                       outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
    becomes `arith.extf` of `%a` and `%b` to f32 and a matmul of f32 tensors.

    An i8 x i8 -> i32 matmul whose K keeps every partial sum below 2^24 (K <= 1024 signed,
    256 unsigned) is computed as an f32 matmul from zero, converted to i32 and added to the
    accumulator: exact, and on the f32 register-blocked path.
  }];
  let options = [
    Option<"amxBF16", "amx-bf16", "bool", /*default=*/"false",
           "Leave the bf16 matmuls AMX tiles take (tritium-cpu-pack-matmuls-for-amx) alone">,
    Option<"amxInt8", "amx-int8", "bool", /*default=*/"false",
           "Leave the int8 matmuls AMX tiles take alone">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def TileMatmulsIntoRegisters : Pass<"tritium-cpu-tile-matmuls-into-registers",
                                     "mlir::func::FuncOp"> {
  let summary = "Tile f32/f64 matmuls into register blocks of C and vectorize each K step";
  let description = [{
    A static `linalg.matmul` whose M and N divide a register block becomes loops over blocks
    of C and over K, each step a `vector.contract` of an (mr x 1) column of A and a (1 x nr)
    row of B into the block. The blocks fit the host's vector registers: with 512-bit vectors
    (32 registers) 8x32, 4x32, 4x16 or 2x16 for f32; with 256-bit vectors (16 registers, an
    AVX2-only host) 6x16, whose 12 accumulators hide the FMA latency and leave room for a row
    of B and a broadcast of A: the rows past a multiple of 6 become a matmul of their own, in
    its slice of C, with 4x16 blocks where a multiple of 4 rows can be left (64 = 60 + 4,
    32 = 24 + 8, 128 = 120 + 8), else 2x16. Where
    two vectors do not divide N, 4x8 or 2x8. f64 blocks are half as wide.
    Other matmuls are left to the plain loop nest.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "The width of the host's vector registers: 512 (AVX-512) or 256 (AVX2)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

def FoldPairXorSumsIntoReversals : Pass<"tritium-cpu-fold-pair-xor-sums-into-reversals",
                                         "mlir::func::FuncOp"> {
  let summary = "Rewrite `a ^ xor_sum(a)` over an axis of two as `a` with that axis reversed";
  let description = [{
    Triton's sort, topk and flip find each element's partner along an axis of size two as
    `a ^ xor_sum(a, axis=k, keep_dims=True)`, which is `a` with its two halves along `k`
    exchanged. An `arith.xori` of a tensor with the broadcast of its `linalg.reduce` by
    `arith.xori` from zero over a dimension of size 2 becomes a `linalg.generic` that reads
    the tensor through `d_k -> 1 - d_k`: one read instead of a reduction, a temporary and a
    broadcast, and a compare-and-swap stage that fuses into one loop nest.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def FoldOneHotPairSumsIntoSlices : Pass<"tritium-cpu-fold-one-hot-pair-sums-into-slices",
                                         "mlir::func::FuncOp"> {
  let summary = "Rewrite `sum(a * onehot)` over an axis of two as a read of `a` at the one index";
  let description = [{
    Inductor's sort picks the left and right element of each pair as
    `tl.sum(a * mask, axis)` with `mask` the broadcast of `1 - tl.arange(0, 2)` or
    `tl.arange(0, 2)`. A `linalg.reduce` by `arith.addi` from zero over a dimension of size 2
    of `arith.muli %a, %m`, where `%m` broadcasts two values that evaluate to one 1 and one 0,
    becomes a `linalg.generic` reading `%a` at the constant index of the 1: no multiply, no
    reduction, and nothing that keeps the stage from fusing.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def CollapseHypercubeLoopNests : Pass<"tritium-cpu-collapse-hypercube-loop-nests",
                                       "mlir::func::FuncOp"> {
  let summary = "Merge the adjacent loop dimensions of high-rank linalg ops that every operand "
                "indexes together";
  let description = [{
    Triton's sort, topk and flip reshape a tile into a hypercube (`[2, 2, ..., 2]`, one
    dimension per bit of its size) and work along one axis at a time. Lowered as they are,
    those ops become nests of ten or more loops of two iterations each, and LLVM spends
    seconds in its loop passes on a sort of 1024 elements. Two adjacent loop dimensions of
    the same iterator type that every indexing map holds as adjacent plain results, in the
    same order, are one dimension of their product's size:

    ```mlir
    linalg.generic {indexing_maps = [(d0, d1, d2, d3) -> (d0, d1, d2, d3),
                                     (d0, d1, d2, d3) -> (0, d1, 0, 0), ...]}
    ```
    iterates over (d0), (d1), (d2 d3) merged: its operands are `tensor.collapse_shape`d and
    its results `tensor.expand_shape`d back, which are views once bufferized. Dimensions
    that a map uses in an expression other than a plain dimension, or that the body reads
    through `linalg.index`, stay alone. Named ops other than contractions are generalized
    first. Ordinary 2-D and 3-D tiles merge by the same rule (an elementwise op over
    `[XBLOCK, RBLOCK]` becomes one loop; a reduction's or a broadcast's dimensions stay
    apart, and contractions are left to the matmul passes): Inductor's sorts mix hypercube
    ops with such tiles, and merging both cut their compile time about threefold.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def TransposeTilesByRegisterBlocks : Pass<"tritium-cpu-transpose-tiles-by-register-blocks",
                                           "mlir::func::FuncOp"> {
  let summary = "2-D tile transposes run as 256-bit register blocks transposed with shuffles";
  let description = [{
    A `linalg.generic` on buffers that only copies `in[j, i]` to `out[i, j]`, of static sizes
    that are multiples of W (8 for 32-bit elements, 4 for 64-bit ones) and rows of unit stride,
    becomes loops over W x W blocks: W `vector.load`s of source rows, log2(W) rounds of
    `vector.shuffle` (unpack, shufps, vperm2f128 on x86), W `vector.store`s of target rows.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def KeepReductionLoopsRolled : Pass<"tritium-cpu-keep-reduction-loops-rolled", "mlir::func::FuncOp"> {
  let summary = "Reduction loops carry their accumulator in a register and stay rolled";
  let description = [{
    An `scf.for` of a constant trip count of at least 16 whose only effect on memory is
    `memref.store (op %acc[%i], %x), %acc[%i]` (%i loop-invariant, %acc a local buffer, `op`
    an integer add/mul/and/or/xor/min/max or a float add/mul with `reassoc`), and whose reads
    walk their buffers' contiguous dimension, becomes a loop carrying the accumulator in
    `iter_args` (one load before, one store after) marked `llvm.loop.unroll.disable`. LLVM
    then vectorizes it along the row instead of unrolling it and gathering across rows.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect", "mlir::LLVM::LLVMDialect"];
}

def ExtremumReductionsWithoutNaNChecks : Pass<"tritium-cpu-extremum-reductions-without-nan-checks",
                                               "mlir::func::FuncOp"> {
  let summary = "Float max/min reductions run without NaN handling, exactly again if a NaN came by";
  let description = [{
    An `scf.for` whose only effect is `memref.store (max %acc[%i], %x), %acc[%i]` (maxnumf,
    maximumf, minnumf or minimumf; %i loop-invariant; %acc a local buffer nothing else in the
    loop reads) first runs as a loop carrying the extremum from -inf (+inf) with `nnan nsz`
    flags, which vectorizes to one vmaxps per vector, and an OR of `cmpf uno %x, %x`. When no
    NaN was seen, the result is folded into %acc with the original operation; otherwise the
    original loop runs.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect"];
}

def FuseIndependentSiblingLoops : Pass<"tritium-cpu-fuse-independent-sibling-loops",
                                        "mlir::func::FuncOp"> {
  let summary = "Sibling loops over the same range that do not depend on each other run as one";
  let description = [{
    Two `scf.for` of one block with equal bounds and step become one loop (carrying both
    loops' iteration arguments) at the first one's place when every local buffer one writes
    and the other touches is loaded and stored by both with the loop's induction variable at
    one same index position (iteration i touches slice i only), when at most one of them
    touches memory outside local buffers if either writes there, and when the ops between them
    that the second loop needs can move before the first. Loops of one iteration are inlined
    first; when two nests join, the loops they hold are fused in turn. A row's reductions
    (Inductor's softmax: not-finite check, max, scaled max) then read it once, and a tile one
    loop writes and the next reads is handed on within the iteration.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def HoistAccumulatorTransfers : Pass<"tritium-cpu-hoist-accumulator-transfers",
                                      "mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant vector transfer pairs out of loops that run";
  let description = [{
    `vector.transfer_read` and `vector.transfer_write` of the same buffer at loop-invariant
    indices inside an `scf.for` become one read before the loop, a loop-carried vector and
    one write after it; the register block of a tiled matmul stays in registers along K.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect", "mlir::scf::SCFDialect"];
}

#endif // TRITIUM_TARGET_CPU_PASSES
