// RUN: tritium-opt %s -split-input-file | tritium-opt -split-input-file | FileCheck %s

// Round trip of every ttg attribute, type and op. The IR is written the way
// triton 3.9 (and tritium) print it, mostly taken from TTGIR that triton
// printed for real kernels (sm80, sm90, sm100, gfx942, gfx950, gfx1100,
// gfx1250), so each CHECK line is the input line printed back unchanged.

// Module attributes, blocked and slice encodings, convert_layout (reduction epilogue on sm80).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @slice_and_convert(%arg0: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> tensor<64xf32, #blocked1> {
// CHECK: %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
// CHECK: %2 = ttg.convert_layout %arg0 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
// CHECK: %3 = ttg.convert_layout %2 {force_warp_shuffle} : tensor<64xf32, #blocked1> -> tensor<64xf32, #blocked1>
// CHECK: tt.return %3 : tensor<64xf32, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @slice_and_convert(%arg0: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> tensor<64xf32, #blocked1> {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %2 = ttg.convert_layout %arg0 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
    %3 = ttg.convert_layout %2 {force_warp_shuffle} : tensor<64xf32, #blocked1> -> tensor<64xf32, #blocked1>
    tt.return %3 : tensor<64xf32, #blocked1>
  }
}

// -----

// nvidia_mma v2, dot_op, swizzled_shared, immutable local_alloc and local_load (matmul on sm80).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @mma_v2(%arg0: tensor<64x32xf16, #blocked>, %arg1: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %arg2: tensor<64x64xf32, #mma>) -> tensor<64x64xf16, #blocked> {
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %1 = ttg.local_load %0 : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %2 = tt.dot %1, %arg1, %arg2, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %3 = arith.truncf %2 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// CHECK: %4 = ttg.convert_layout %3 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
// CHECK: tt.return %4 : tensor<64x64xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v2(%arg0: tensor<64x32xf16, #blocked>, %arg1: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %arg2: tensor<64x64xf32, #mma>) -> tensor<64x64xf16, #blocked> {
    %0 = ttg.local_alloc %arg0 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %2 = tt.dot %1, %arg1, %arg2, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %3 = arith.truncf %2 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %4 = ttg.convert_layout %3 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    tt.return %4 : tensor<64x64xf16, #blocked>
  }
}

// -----

// dot_op without kWidth (kWidth = 0 is not printed).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @dot_op_default_kwidth(%arg0: tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> {
// CHECK: tt.return %arg0 : tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_op_default_kwidth(%arg0: tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> {
    tt.return %arg0 : tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
  }
}

// -----

// Software-pipelined loads on sm80: memdesc_index, async copies, commit groups, waits, subslice views, local_load with a token, local_dealloc.
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @pipelined(%arg0: tensor<64x32x!tt.ptr<f16>, #blocked>, %arg1: tensor<64x32xi1, #blocked>, %arg2: tensor<64x32xf16, #blocked>) -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
// CHECK: %c0_i32 = arith.constant 0 : i32
// CHECK: %0 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
// CHECK: %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %2 = ttg.async_copy_global_to_local %arg0, %1 mask %arg1 {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %3 = ttg.async_commit_group tokens %2
// CHECK: %4 = ttg.async_copy_global_to_local %arg0, %1 mask %arg1 other %arg2 {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %5 = ttg.async_copy_global_to_local %arg0, %1 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %6 = ttg.async_commit_group tokens %4, %5
// CHECK: %7 = ttg.async_wait %3, %6 {num = 1 : i32}
// CHECK: %8 = ttg.memdesc_subslice %1[0, 16] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
// CHECK: %9 = ttg.local_load %8 token %7 : !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %10 = ttg.async_commit_group
// CHECK: %11 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %0 : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
// CHECK: tt.return %9 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @pipelined(%arg0: tensor<64x32x!tt.ptr<f16>, #blocked>, %arg1: tensor<64x32xi1, #blocked>, %arg2: tensor<64x32xf16, #blocked>) -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %c0_i32 = arith.constant 0 : i32
    %0 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %2 = ttg.async_copy_global_to_local %arg0, %1 mask %arg1 {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %3 = ttg.async_commit_group tokens %2
    %4 = ttg.async_copy_global_to_local %arg0, %1 mask %arg1 other %arg2 {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %5 = ttg.async_copy_global_to_local %arg0, %1 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %6 = ttg.async_commit_group tokens %4, %5
    %7 = ttg.async_wait %3, %6 {num = 1 : i32}
    %8 = ttg.memdesc_subslice %1[0, 16] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
    %9 = ttg.local_load %8 token %7 : !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %10 = ttg.async_commit_group
    %11 = ttg.async_wait {num = 0 : i32}
    ttg.local_dealloc %0 : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    tt.return %9 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// An async copy with a cache policy, as gluon prints it (the `tt` cache_policy attribute in the attribute dictionary).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @async_cache_policy(%arg0: tensor<32x32x!tt.ptr<f32>, #blocked>, %arg1: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>) -> !ttg.async.token {
// CHECK: %0 = ttg.async_copy_global_to_local %arg0, %arg1 {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>} : tensor<32x32x!tt.ptr<f32>, #blocked> -> <32x32xf32, #shared, #smem, mutable>
// CHECK: tt.return %0 : !ttg.async.token
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @async_cache_policy(%arg0: tensor<32x32x!tt.ptr<f32>, #blocked>, %arg1: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>) -> !ttg.async.token {
    %0 = ttg.async_copy_global_to_local %arg0, %arg1 {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>} : tensor<32x32x!tt.ptr<f32>, #blocked> -> <32x32xf32, #shared, #smem, mutable>
    tt.return %0 : !ttg.async.token
  }
}

// -----

// amd_mfma, amd_rotating_shared and a linear encoding (matmul on gfx942).
// CHECK-DAG: #linear = #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [16, 0]], lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = {{\[\[}}4, 0], [8, 0]], block = []}>
// CHECK-DAG: #mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK-DAG: #shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
// CHECK: tt.func @mfma_operand(%arg0: tensor<32x64xf16, #linear>) -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> {
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<32x64xf16, #linear>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
// CHECK: %1 = ttg.local_load %0 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: tt.return %1 : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
#linear = #ttg.linear<{register = [[1, 0], [2, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[4, 0], [8, 0]], block = []}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma_operand(%arg0: tensor<32x64xf16, #linear>) -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> {
    %0 = ttg.local_alloc %arg0 : (tensor<32x64xf16, #linear>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    tt.return %1 : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
  }
}

// -----

// A one-dimensional linear encoding with a broadcast warp basis (gluon, sm80).
// CHECK-DAG: #linear = #ttg.linear<{register = {{\[\[}}1]], lane = {{\[\[}}2], [4], [8], [16], [32]], warp = {{\[\[}}64], [0]], block = []}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @linear_1d(%arg0: tensor<128xf32, #linear>) -> tensor<128xf32, #linear> {
// CHECK: tt.return %arg0 : tensor<128xf32, #linear>
#linear = #ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @linear_1d(%arg0: tensor<128xf32, #linear>) -> tensor<128xf32, #linear> {
    tt.return %arg0 : tensor<128xf32, #linear>
  }
}

// -----

// amd_mfma with tilesPerWarp, and with a 64-bit result (gluon, gfx950 and gfx942).
// CHECK-DAG: #mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [16, 16, 32], isTransposed = true, tilesPerWarp = [2, 2]}>
// CHECK-DAG: #mma1 = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 4], isTransposed = false, elementBitWidth = 64}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32, "ttg.total-num-warps" = 4 : i32} {
// CHECK: tt.func @mfma_variants(%arg0: tensor<64x64xf32, #mma>, %arg1: tensor<64x64xf64, #mma1>) -> tensor<64x64xf64, #mma1> {
// CHECK: tt.return %arg1 : tensor<64x64xf64, #mma1>
#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [16, 16, 32], isTransposed = true, tilesPerWarp = [2, 2]}>
#mma1 = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 4], isTransposed = false, elementBitWidth = 64}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32, "ttg.total-num-warps" = 4 : i32} {
  tt.func @mfma_variants(%arg0: tensor<64x64xf32, #mma>, %arg1: tensor<64x64xf64, #mma1>) -> tensor<64x64xf64, #mma1> {
    tt.return %arg1 : tensor<64x64xf64, #mma1>
  }
}

// -----

// amd_wmma v1 with the default instruction shape, local_store into a mutable buffer (matmul on gfx1100).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = {{\[\[}}0, 1], [1, 0]]}}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @wmma_v1(%arg0: tensor<64x32xf16, #blocked>) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> {
// CHECK: %c0_i32 = arith.constant 0 : i32
// CHECK: %0 = ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable>
// CHECK: %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: ttg.local_store %arg0, %1 : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %2 = ttg.local_load %1 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
// CHECK: ttg.local_dealloc %0 : !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable>
// CHECK: tt.return %2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma_v1(%arg0: tensor<64x32xf16, #blocked>) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> {
    %c0_i32 = arith.constant 0 : i32
    %0 = ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable>
    %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    ttg.local_store %arg0, %1 : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %2 = ttg.local_load %1 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    ttg.local_dealloc %0 : !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable>
    tt.return %2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
  }
}

// -----

// amd_wmma v3 with register bases and a non-default instruction shape (gluon, gfx1250).
// CHECK-DAG: #mma = #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {register = {{\[\[}}2, 0]], warp = {{\[\[}}0, 1], [1, 0]]}, instrShape = [16, 16, 32]}>
// CHECK-DAG: #mma1 = #ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {warp = {{\[\[}}0, 1], [1, 0]]}, instrShape = [16, 16, 32]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1250", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 4 : i32} {
// CHECK: tt.func @wmma_v3(%arg0: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma1> {
// CHECK: %0 = ttg.convert_layout %arg0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma1>
// CHECK: tt.return %0 : tensor<64x64xf32, #mma1>
#mma = #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {register = [[2, 0]], warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 32]}>
#mma1 = #ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1250", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 4 : i32} {
  tt.func @wmma_v3(%arg0: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma1> {
    %0 = ttg.convert_layout %arg0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma1>
    tt.return %0 : tensor<64x64xf32, #mma1>
  }
}

// -----

// nvidia_mma v3 and nvmma_shared: transposed, rank 3, rank 1 without swizzling, fp4 padding (gluon, sm90).
// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-DAG: #shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
// CHECK-DAG: #shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @nvmma(%arg0: tensor<64x64xf32, #mma>, %arg1: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %arg2: !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>, %arg3: !ttg.memdesc<2x64x64xf16, #shared2, #smem, mutable>, %arg4: !ttg.memdesc<64xf16, #shared3, #smem, mutable>, %arg5: !ttg.memdesc<64x128xi8, #shared4, #smem>) {
// CHECK: %c1_i32 = arith.constant 1 : i32
// CHECK: %0 = ttg.memdesc_index %arg2[%c1_i32] : !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
#shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @nvmma(%arg0: tensor<64x64xf32, #mma>, %arg1: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %arg2: !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>, %arg3: !ttg.memdesc<2x64x64xf16, #shared2, #smem, mutable>, %arg4: !ttg.memdesc<64xf16, #shared3, #smem, mutable>, %arg5: !ttg.memdesc<64x128xi8, #shared4, #smem>) {
    %c1_i32 = arith.constant 1 : i32
    %0 = ttg.memdesc_index %arg2[%c1_i32] : !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
    tt.return
  }
}

// -----

// CGA layouts of a two-CTA kernel (gluon, sm90), plus MMA layouts with a CGA layout and a shared_linear layout with block bases.
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {{\[\[}}0, 1]], instrShape = [16, 64, 16]}>
// CHECK-DAG: #mma1 = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #shared2 = #ttg.shared_linear<{offset = {{\[\[}}1], [2], [4]], block = {{\[\[}}8]]}, alignment = 32>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @cga(%arg0: tensor<64x32xf32, #blocked>, %arg1: tensor<64x64xf32, #mma>, %arg2: tensor<64x64xf32, #mma1>) -> tensor<64x32xf32, #blocked> {
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
// CHECK: %1 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared1, #smem, mutable>
// CHECK: %2 = ttg.local_load %0 : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32, #blocked>
// CHECK: %3 = ttg.local_load %1 : !ttg.memdesc<64x32xf32, #shared1, #smem, mutable> -> tensor<64x32xf32, #blocked>
// CHECK: %4 = arith.addf %2, %3 : tensor<64x32xf32, #blocked>
// CHECK: %5 = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #shared2, #smem, mutable>
// CHECK: tt.return %4 : tensor<64x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 1]], instrShape = [16, 64, 16]}>
#mma1 = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, CGALayout = [[1, 0]]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, CGALayout = [[1, 0]]}>
#shared2 = #ttg.shared_linear<{offset = [[1], [2], [4]], block = [[8]]}, alignment = 32>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @cga(%arg0: tensor<64x32xf32, #blocked>, %arg1: tensor<64x64xf32, #mma>, %arg2: tensor<64x64xf32, #mma1>) -> tensor<64x32xf32, #blocked> {
    %0 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %1 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared1, #smem, mutable>
    %2 = ttg.local_load %0 : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32, #blocked>
    %3 = ttg.local_load %1 : !ttg.memdesc<64x32xf32, #shared1, #smem, mutable> -> tensor<64x32xf32, #blocked>
    %4 = arith.addf %2, %3 : tensor<64x32xf32, #blocked>
    %5 = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #shared2, #smem, mutable>
    tt.return %4 : tensor<64x32xf32, #blocked>
  }
}

// -----

// padded_shared in its short (identity) and long forms, shared_linear (gluon, gfx950).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #shared = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [32, 32]}>
// CHECK-DAG: #shared1 = #ttg.padded_shared<[16:+1, 64:+2] {offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [2, 0], [4, 0], [8, 0], [16, 0], [1, 0]], block = []}>
// CHECK-DAG: #shared2 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 16>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32, "ttg.total-num-warps" = 4 : i32} {
// CHECK: tt.func @padded(%arg0: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
// CHECK: %1 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared1, #smem, mutable>
// CHECK: %2 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared2, #smem, mutable>
// CHECK: %3 = ttg.local_load %0 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
// CHECK: %4 = ttg.local_load %1 : !ttg.memdesc<32x32xf32, #shared1, #smem, mutable> -> tensor<32x32xf32, #blocked>
// CHECK: %5 = ttg.local_load %2 : !ttg.memdesc<32x32xf32, #shared2, #smem, mutable> -> tensor<32x32xf32, #blocked>
// CHECK: tt.return %5 : tensor<32x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [32, 32]}>
#shared1 = #ttg.padded_shared<[16:+1, 64:+2] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [2, 0], [4, 0], [8, 0], [16, 0], [1, 0]], block = []}>
#shared2 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32, "ttg.total-num-warps" = 4 : i32} {
  tt.func @padded(%arg0: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %1 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared1, #smem, mutable>
    %2 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared2, #smem, mutable>
    %3 = ttg.local_load %0 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
    %4 = ttg.local_load %1 : !ttg.memdesc<32x32xf32, #shared1, #smem, mutable> -> tensor<32x32xf32, #blocked>
    %5 = ttg.local_load %2 : !ttg.memdesc<32x32xf32, #shared2, #smem, mutable> -> tensor<32x32xf32, #blocked>
    tt.return %5 : tensor<32x32xf32, #blocked>
  }
}

// -----

// partitioned_shared wrapping a swizzled layout (gluon, gfx1250).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK-DAG: #shared1 = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #shared}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1250", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 4 : i32} {
// CHECK: tt.func @partitioned(%arg0: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared1, #smem, mutable>
// CHECK: %1 = ttg.local_load %0 : !ttg.memdesc<64x32xf32, #shared1, #smem, mutable> -> tensor<64x32xf32, #blocked>
// CHECK: tt.return %1 : tensor<64x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#shared1 = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #shared}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1250", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 4 : i32} {
  tt.func @partitioned(%arg0: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
    %0 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared1, #smem, mutable>
    %1 = ttg.local_load %0 : !ttg.memdesc<64x32xf32, #shared1, #smem, mutable> -> tensor<64x32xf32, #blocked>
    tt.return %1 : tensor<64x32xf32, #blocked>
  }
}

// -----

// Descriptor views: index, subslice, trans, reshape, reinterpret (gluon, sm80).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
// CHECK-DAG: #shared2 = #ttg.shared_linear<{offset = {{\[\[}}1], [2], [4], [8], [16], [32], [64], [128], [256], [512]]}, alignment = 16>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @views(%arg0: tensor<32x32xf32, #blocked>) -> tensor<1024xf32, #blocked1> {
// CHECK: %c0_i32 = arith.constant 0 : i32
// CHECK: %0 = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>
// CHECK: %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
// CHECK: ttg.local_store %arg0, %1 : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
// CHECK: %2 = ttg.memdesc_subslice %1[16, 0] : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf32, #shared, #smem, mutable, 32x32>
// CHECK: %3 = ttg.memdesc_trans %1 {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared1, #smem, mutable>
// CHECK: %4 = ttg.local_load %3 : !ttg.memdesc<32x32xf32, #shared1, #smem, mutable> -> tensor<32x32xf32, #blocked>
// CHECK: %5 = ttg.local_load %2 : !ttg.memdesc<16x32xf32, #shared, #smem, mutable, 32x32> -> tensor<16x32xf32, #blocked>
// CHECK: %6 = ttg.memdesc_reshape %1 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<1024xf32, #shared2, #smem, mutable>
// CHECK: %7 = ttg.local_load %6 : !ttg.memdesc<1024xf32, #shared2, #smem, mutable> -> tensor<1024xf32, #blocked1>
// CHECK: %8 = ttg.memdesc_reinterpret %1 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xi32, #shared, #smem, mutable>
// CHECK: %9 = ttg.local_load %8 : !ttg.memdesc<32x32xi32, #shared, #smem, mutable> -> tensor<32x32xi32, #blocked>
// CHECK: ttg.local_dealloc %0 : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>
// CHECK: tt.return %7 : tensor<1024xf32, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#shared2 = #ttg.shared_linear<{offset = [[1], [2], [4], [8], [16], [32], [64], [128], [256], [512]]}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @views(%arg0: tensor<32x32xf32, #blocked>) -> tensor<1024xf32, #blocked1> {
    %c0_i32 = arith.constant 0 : i32
    %0 = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>
    %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    ttg.local_store %arg0, %1 : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %2 = ttg.memdesc_subslice %1[16, 0] : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf32, #shared, #smem, mutable, 32x32>
    %3 = ttg.memdesc_trans %1 {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared1, #smem, mutable>
    %4 = ttg.local_load %3 : !ttg.memdesc<32x32xf32, #shared1, #smem, mutable> -> tensor<32x32xf32, #blocked>
    %5 = ttg.local_load %2 : !ttg.memdesc<16x32xf32, #shared, #smem, mutable, 32x32> -> tensor<16x32xf32, #blocked>
    %6 = ttg.memdesc_reshape %1 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<1024xf32, #shared2, #smem, mutable>
    %7 = ttg.local_load %6 : !ttg.memdesc<1024xf32, #shared2, #smem, mutable> -> tensor<1024xf32, #blocked1>
    %8 = ttg.memdesc_reinterpret %1 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xi32, #shared, #smem, mutable>
    %9 = ttg.local_load %8 : !ttg.memdesc<32x32xi32, #shared, #smem, mutable> -> tensor<32x32xi32, #blocked>
    ttg.local_dealloc %0 : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>
    tt.return %7 : tensor<1024xf32, #blocked1>
  }
}

// -----

// Gather, scatter and atomic scatter in shared memory (gluon, sm80).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @gather_scatter(%arg0: tensor<32x32xf32, #blocked>, %arg1: tensor<32x32xi32, #blocked>, %arg2: tensor<32x32xi1, #blocked>, %arg3: !ttg.async.token) -> tensor<32x32xf32, #blocked> {
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
// CHECK: %1 = ttg.local_gather %0[%arg1] {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
// CHECK: %2 = ttg.local_gather %0[%arg1] token %arg3 {axis = 1 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
// CHECK: ttg.local_scatter %0[%arg1], %1 {axis = 1 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x32xf32, #blocked>
// CHECK: ttg.local_scatter %0[%arg1], %2 token %arg3 {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x32xf32, #blocked>
// CHECK: %3 = ttg.local_atomic_scatter_rmw fadd, %0[%arg1], %1 {axis = 0 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>) -> tensor<32x32xf32, #blocked>
// CHECK: %4 = ttg.local_atomic_scatter_rmw max, %0[%arg1], %3, %arg2 {axis = 1 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>, tensor<32x32xi1, #blocked>) -> tensor<32x32xf32, #blocked>
// CHECK: tt.return %4 : tensor<32x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @gather_scatter(%arg0: tensor<32x32xf32, #blocked>, %arg1: tensor<32x32xi32, #blocked>, %arg2: tensor<32x32xi1, #blocked>, %arg3: !ttg.async.token) -> tensor<32x32xf32, #blocked> {
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %1 = ttg.local_gather %0[%arg1] {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
    %2 = ttg.local_gather %0[%arg1] token %arg3 {axis = 1 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
    ttg.local_scatter %0[%arg1], %1 {axis = 1 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x32xf32, #blocked>
    ttg.local_scatter %0[%arg1], %2 token %arg3 {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x32xf32, #blocked>
    %3 = ttg.local_atomic_scatter_rmw fadd, %0[%arg1], %1 {axis = 0 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>) -> tensor<32x32xf32, #blocked>
    %4 = ttg.local_atomic_scatter_rmw max, %0[%arg1], %3, %arg2 {axis = 1 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>, tensor<32x32xi1, #blocked>) -> tensor<32x32xf32, #blocked>
    tt.return %4 : tensor<32x32xf32, #blocked>
  }
}

// -----

// inline_asm, pure on tensors and impure on a descriptor (gluon, sm80).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @inline_asm(%arg0: tensor<128xf32, #blocked>, %arg1: !ttg.memdesc<128xi32, #shared, #smem, mutable>, %arg2: i32) -> tensor<128xf32, #blocked> {
// CHECK: %0 = ttg.inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", pure = true} %arg0 : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
// CHECK: ttg.inline_asm "st.shared.b32 [$0], $1;" {constraints = "r,r", pure = false} %arg1, %arg2 : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, i32) -> ()
// CHECK: tt.return %0 : tensor<128xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @inline_asm(%arg0: tensor<128xf32, #blocked>, %arg1: !ttg.memdesc<128xi32, #shared, #smem, mutable>, %arg2: i32) -> tensor<128xf32, #blocked> {
    %0 = ttg.inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", pure = true} %arg0 : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    ttg.inline_asm "st.shared.b32 [$0], $1;" {constraints = "r,r", pure = false} %arg1, %arg2 : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, i32) -> ()
    tt.return %0 : tensor<128xf32, #blocked>
  }
}

// -----

// fp4_to_fp (gluon, sm80).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @fp4_to_fp(%arg0: tensor<32x16xi8, #blocked>) -> tensor<32x32xbf16, #blocked1> {
// CHECK: %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xbf16, #blocked1>
// CHECK: tt.return %0 : tensor<32x32xbf16, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @fp4_to_fp(%arg0: tensor<32x16xi8, #blocked>) -> tensor<32x32xbf16, #blocked1> {
    %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xbf16, #blocked1>
    tt.return %0 : tensor<32x32xbf16, #blocked1>
  }
}

// -----

// warp_specialize with two partitions and register requests (gluon, sm100).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: #blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @warp_specialize(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) {
// CHECK: ttg.warp_specialize(%arg0, %arg1) attributes {requestedRegisters = array<i32: 24, 32>}
// CHECK: default {
// CHECK: %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// CHECK: %1 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
// CHECK: %2 = tt.addptr %1, %0 : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
// CHECK: ttg.warp_yield
// CHECK: partition0(%arg2: !tt.ptr<f32>, %arg3: !tt.ptr<f32>) num_warps(1) {
// CHECK: %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked1>
// CHECK: ttg.warp_return
// CHECK: partition1(%arg2: !tt.ptr<f32>, %arg3: !tt.ptr<f32>) num_warps(2) {
// CHECK: %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked2>
// CHECK: ttg.warp_return
// CHECK: } : (!tt.ptr<f32>, !tt.ptr<f32>) -> ()
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @warp_specialize(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) {
    ttg.warp_specialize(%arg0, %arg1) attributes {requestedRegisters = array<i32: 24, 32>}
    default {
      %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      %1 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %2 = tt.addptr %1, %0 : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      ttg.warp_yield
    }
    partition0(%arg2: !tt.ptr<f32>, %arg3: !tt.ptr<f32>) num_warps(1) {
      %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked1>
      ttg.warp_return
    }
    partition1(%arg2: !tt.ptr<f32>, %arg3: !tt.ptr<f32>) num_warps(2) {
      %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked2>
      ttg.warp_return
    } : (!tt.ptr<f32>, !tt.ptr<f32>) -> ()
    tt.return
  }
}

// -----

// warp_specialize returning the default region's value (gluon, sm90).
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK: tt.func @warp_specialize_result(%arg0: tensor<128xf32, #blocked>, %arg1: i32) -> tensor<128xf32, #blocked> {
// CHECK: %0 = ttg.warp_specialize(%arg1)
// CHECK: default {
// CHECK: ttg.warp_yield %arg0 : tensor<128xf32, #blocked>
// CHECK: partition0(%arg2: i32) num_warps(4) {
// CHECK: ttg.warp_return
// CHECK: } : (i32) -> tensor<128xf32, #blocked>
// CHECK: tt.return %0 : tensor<128xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @warp_specialize_result(%arg0: tensor<128xf32, #blocked>, %arg1: i32) -> tensor<128xf32, #blocked> {
    %0 = ttg.warp_specialize(%arg1)
    default {
      ttg.warp_yield %arg0 : tensor<128xf32, #blocked>
    }
    partition0(%arg2: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> tensor<128xf32, #blocked>
    tt.return %0 : tensor<128xf32, #blocked>
  }
}

// -----

// Barriers over address-space sets, warp ids, global scratch buffers.
// CHECK: module {
// CHECK: tt.func @barrier_and_scratch() -> i32 {
// CHECK: ttg.barrier all
// CHECK: ttg.barrier local
// CHECK: ttg.barrier local|global_read|global_write
// CHECK: ttg.barrier tensor_read|tensor_write
// CHECK: ttg.barrier none
// CHECK: %0 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK: %1 = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 256 : i32, third_party_allocation} : !tt.ptr<i8>
// CHECK: %2 = ttg.warp_id
// CHECK: %3 = ttg.warp_id {omitUniformHint}
// CHECK: tt.return %3 : i32
module {
  tt.func @barrier_and_scratch() -> i32 {
    ttg.barrier all
    ttg.barrier local
    ttg.barrier local|global_read|global_write
    ttg.barrier tensor_read|tensor_write
    ttg.barrier none
    %0 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    %1 = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 256 : i32, third_party_allocation} : !tt.ptr<i8>
    %2 = ttg.warp_id
    %3 = ttg.warp_id {omitUniformHint}
    tt.return %3 : i32
  }
}

// -----

// Pipeliner helpers: predicate_stage, and mask in its generic form.
// CHECK: module {
// CHECK: tt.func @pipeliner_helpers(%arg0: i32, %arg1: i32, %arg2: i32) -> i32 {
// CHECK: %0 = ttg.predicate_stage %arg0, %arg1, %arg2 maxStage 2 stage 0 : i32 -> i1
// CHECK: %1 = "ttg.mask"(%0) ({
// CHECK: ttg.mask.return %arg0 : i32
// CHECK: }) : (i1) -> i32
// CHECK: tt.return %1 : i32
module {
  tt.func @pipeliner_helpers(%arg0: i32, %arg1: i32, %arg2: i32) -> i32 {
    %0 = ttg.predicate_stage %arg0, %arg1, %arg2 maxStage 2 stage 0 : i32 -> i1
    %1 = "ttg.mask"(%0) ({
      ttg.mask.return %arg0 : i32
    }) : (i1) -> i32
    tt.return %1 : i32
  }
}

// -----

// A mask without results ends in `ttg.mask.return :`, as triton prints it (triton's own parser
// rejects that text; tritium reads what triton prints).
// CHECK: tt.func @mask_without_results(%arg0: i1) {
// CHECK: "ttg.mask"(%arg0) ({
// CHECK: ttg.mask.return :
// CHECK: }) : (i1) -> ()
module {
  tt.func @mask_without_results(%arg0: i1) {
    "ttg.mask"(%arg0) ({
      ttg.mask.return :
    }) : (i1) -> ()
    tt.return
  }
}

// -----

// generic_linear: a linear layout whose warp bases are swizzled (aliased as #generic_linear, as triton does).
// CHECK-DAG: #generic_linear = #ttg.generic_linear<{register = [], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}1, 1], [0, 2]], block = []}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @generic_linear(%arg0: tensor<32x4xf32, #generic_linear>) -> tensor<32x4xf32, #generic_linear> {
// CHECK: tt.return %arg0 : tensor<32x4xf32, #generic_linear>
#generic_linear = #ttg.generic_linear<{register = [], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[1, 1], [0, 2]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @generic_linear(%arg0: tensor<32x4xf32, #generic_linear>) -> tensor<32x4xf32, #generic_linear> {
    tt.return %arg0 : tensor<32x4xf32, #generic_linear>
  }
}

// -----

// Spellings triton accepts but does not print: keys in another order, fields at their default value, an identity padded layout in long form, an alloc shape equal to the shape. They print in triton's canonical form.
// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
// CHECK-DAG: #mma1 = #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = {{\[\[}}1, 0], [0, 1]]}}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.padded_shared<[8:+1] {order = [0, 1], shape = [8, 4]}>
// CHECK-DAG: #shared2 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [1, 0]]}, alignment = 8>
// CHECK-DAG: #smem = #ttg.shared_memory
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: tt.func @variants(%arg0: tensor<128xf32, #blocked>, %arg1: tensor<64x64xf32, #mma>, %arg2: tensor<64x64xf32, #mma1>, %arg3: tensor<128xf32, #ttg.slice<{dim = 0, parent = #ttg.dot_op<{opIdx = 0, parent = #blocked1}>}>>, %arg4: !ttg.memdesc<16x16xf16, #shared, #smem, mutable>, %arg5: !ttg.memdesc<16x16xf16, #shared, #smem, 32x16>, %arg6: !ttg.memdesc<8x4xf16, #shared1, #smem>, %arg7: !ttg.memdesc<2x2xf32, #shared2, #smem>) {
// CHECK: tt.return
#blocked = #ttg.blocked<{order = [0], warpsPerCTA = [4], threadsPerWarp = [32], sizePerThread = [1]}>
#mma = #ttg.amd_mfma<{isTransposed = false, version = 3, instrShape = [32, 32, 8], warpsPerCTA = [2, 2], tilesPerWarp = [1, 1], elementBitWidth = 32}>
#mma1 = #ttg.amd_wmma<{version = 2, ctaLayout = {register = [], warp = [[1, 0], [0, 1]]}, instrShape = [16, 16, 16], isTranspose = false}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, elementBitWidth = 16, rank = 2}>
#shared1 = #ttg.padded_shared<[8:+1] {offset = [[1, 0], [2, 0], [4, 0], [0, 1], [0, 2]], block = []}>
#shared2 = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 8>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @variants(%arg0: tensor<128xf32, #blocked>, %arg1: tensor<64x64xf32, #mma>, %arg2: tensor<64x64xf32, #mma1>, %arg3: tensor<128xf32, #ttg.slice<{dim = 0, parent = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, kWidth = 0}>}>>, %arg4: !ttg.memdesc<16x16xf16, #shared, #smem, mutable, 16x16>, %arg5: !ttg.memdesc<16x16xf16, #shared, #smem, 32x16>, %arg6: !ttg.memdesc<8x4xf16, #shared1, #smem>, %arg7: !ttg.memdesc<2x2xf32, #shared2, #smem>) {
    tt.return
  }
}
