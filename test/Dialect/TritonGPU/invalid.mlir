// RUN: tritium-opt %s -split-input-file -verify-diagnostics

// One case per rule the ttg parsers and verifiers enforce.

//===----------------------------------------------------------------------===//
// Encodings
//===----------------------------------------------------------------------===//

// expected-error @+1 {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{every element of sizePerThread must be a power of two}}
#blocked = #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{order must be a permutation of 0..rank-1, got [1, 1]}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @+1 {{basis of 'CGALayout' has 1 entries but the layout has rank 2}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1]]}>

// -----

// expected-error @+1 {{unexpected key: foo}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], foo = 1}>

// -----

// expected-error @+1 {{expected an array of integers for 'order'}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = 0}>

// -----

// expected-error @+1 {{the bases along dim0 do not form a bijection}}
#linear = #ttg.linear<{register = [[2]], lane = [], warp = [], block = []}>

// -----

// expected-error @+1 {{bases of 'lane' must each move along one dimension by a power of two}}
#linear = #ttg.linear<{register = [], lane = [[1, 1]], warp = [], block = []}>

// -----

// expected-error @+1 {{expected bases for 'block'}}
#linear = #ttg.linear<{register = [[1]], lane = [], warp = []}>

// -----

// expected-error @+1 {{basis of 'lane' has 1 entries but the layout has rank 2}}
#linear = #ttg.linear<{register = [[1, 0]], lane = [[2]], warp = [], block = []}>

// -----

// expected-error @+1 {{bases of 'lane' must move along at most one dimension}}
#linear = #ttg.generic_linear<{register = [], lane = [[1, 1]], warp = [], block = []}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dim=2 must be less than the parent rank=2}}
tt.func @slice_dim(%arg0: tensor<32xf32, #ttg.slice<{dim = 2, parent = #blocked}>>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{parent of a slice must be a distributed encoding}}
tt.func @slice_of_shared(%arg0: tensor<32xf32, #ttg.slice<{dim = 0, parent = #shared}>>) {
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{opIdx must be 0 (operand a) or 1 (operand b)}}
tt.func @dot_op_index(%arg0: tensor<32x32xf16, #ttg.dot_op<{opIdx = 2, parent = #blocked, kWidth = 2}>>) {
  tt.return
}

// -----

// expected-error @+1 {{versionMajor must be at least 2}}
#mma = #ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>

// -----

// expected-error @+1 {{invalid (mDim, nDim) combination: (32, 16)}}
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 16, 8], isTransposed = true}>

// -----

// expected-error @+1 {{elementBitWidth must be 32 or 64}}
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, elementBitWidth = 16}>

// -----

// expected-error @+1 {{expected 'isTransposed'}}
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8]}>

// -----

// expected-error @+1 {{WMMA version must be in the [1, 3] range}}
#mma = #ttg.amd_wmma<{version = 4, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}}>

// -----

// expected-error @+1 {{order must be a permutation of 0..rank-1, got [2, 0]}}
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 0]}>

// -----

// expected-error @+1 {{order must be a permutation of 0..rank-1, got [0, 0]}}
#shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 0]}>

// -----

// expected-error @+1 {{swizzlingByteWidth must be 0, 32, 64, or 128}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @+1 {{every element of the intervals must be a power of two}}
#shared = #ttg.padded_shared<[6:+1] {order = [1, 0], shape = [32, 32]}>

// -----

// expected-error @+1 {{interval values cannot have duplicates}}
#shared = #ttg.padded_shared<[8:+1, 8:+2] {order = [1, 0], shape = [32, 32]}>

// -----

// expected-error @+1 {{broadcasting in the offset dimension is not supported}}
#shared = #ttg.padded_shared<[8:+1] {offset = [[0, 1], [0, 0]], block = []}>

// -----

// expected-error @+1 {{alignment must be a positive power of two}}
#shared = #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 12>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{numPartitions must be a power of 2 and at least 2}}
#shared1 = #ttg.partitioned_shared<{numPartitions = 1, numGroups = 2, partitionDim = 0, partitionLayout = #shared}>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{partitionDim (2) must be less than the layout rank (2)}}
#shared1 = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 2, partitionLayout = #shared}>

// -----

//===----------------------------------------------------------------------===//
// !ttg.memdesc
//===----------------------------------------------------------------------===//

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{shape must have power-of-2 dimensions (the first excepted)}}
tt.func @memdesc_shape(%arg0: !ttg.memdesc<2x3xf16, #shared, #smem>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{shape must be less than or equal to the alloc shape}}
tt.func @memdesc_alloc_shape(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem, 16x32>) {
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

tt.func @convert_without_layouts(%arg0: tensor<32xf32>) {
  // expected-error @+1 {{source and result must both have an encoding}}
  %0 = ttg.convert_layout %arg0 : tensor<32xf32> -> tensor<32xf32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @pure_asm_on_memory(%arg0: !ttg.memdesc<128xi32, #shared, #smem, mutable>) {
  // expected-error @+1 {{with memory descriptor operands must not be pure}}
  ttg.inline_asm "st.shared.b32 [$0], 0;" {constraints = "r", pure = true} %arg0 : (!ttg.memdesc<128xi32, #shared, #smem, mutable>) -> ()
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @async_copy_immutable(%arg0: tensor<32x32x!tt.ptr<f32>, #blocked>, %arg1: !ttg.memdesc<32x32xf32, #shared, #smem>) {
    // expected-error @+1 {{cannot store into immutable memory}}
    %0 = ttg.async_copy_global_to_local %arg0, %arg1 : tensor<32x32x!tt.ptr<f32>, #blocked> -> <32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @async_copy_shape(%arg0: tensor<64x32x!tt.ptr<f32>, #blocked>, %arg1: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{pointee shape must match the memdesc shape}}
    %0 = ttg.async_copy_global_to_local %arg0, %arg1 : tensor<64x32x!tt.ptr<f32>, #blocked> -> <32x32xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_uninitialized_immutable() {
  // expected-error @+1 {{uninitialized alloc must have a mutable memdesc type}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_element_type(%arg0: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{must match the memdesc element type}}
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @alloc_outside_shared_memory() {
  // expected-error @+1 {{should create a buffer of shared memory}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16xf16, #shared, 1 : i32, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_partial_view() {
  // expected-error @+1 {{result shape and its alloc shape must match}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable, 32x16>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @load_shape(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem>) {
    // expected-error @+1 {{result shape must match the memdesc shape}}
    %0 = ttg.local_load %arg0 : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x16xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_immutable(%arg0: tensor<32x32xf32, #blocked>, %arg1: !ttg.memdesc<32x32xf32, #shared, #smem>) {
    // expected-error @+1 {{cannot store into immutable memory}}
    ttg.local_store %arg0, %arg1 : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @gather_axis(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem>, %arg1: tensor<32x32xi32, #blocked>) {
    // expected-error @+1 {{axis 2 is out of bounds for rank 2}}
    %0 = ttg.local_gather %arg0[%arg1] {axis = 2 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scatter_shape(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %arg1: tensor<32x32xi32, #blocked>, %arg2: tensor<32x16xf32, #blocked>) {
    // expected-error @+1 {{values must have the shape of the indices}}
    ttg.local_scatter %arg0[%arg1], %arg2 {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x16xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @atomic_scatter_result(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %arg1: tensor<32x32xi32, #blocked>, %arg2: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{result must have the type of the values}}
    %0 = ttg.local_atomic_scatter_rmw fadd, %arg0[%arg1], %arg2 {axis = 0 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>) -> tensor<32x32xf16, #blocked>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_shape(%arg0: !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>, %arg1: i32) {
  // expected-error @+1 {{result shape must be the source shape without its first dimension}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_mutability(%arg0: !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>, %arg1: i32) {
  // expected-error @+1 {{result must be as mutable as the source}}
  %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_bounds(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem>) {
  // expected-error @+1 {{subslice must stay within the source shape in dimension 0}}
  %0 = ttg.memdesc_subslice %arg0[24, 0] : !ttg.memdesc<32x32xf32, #shared, #smem> -> !ttg.memdesc<16x32xf32, #shared, #smem, 32x32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_alloc_shape(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem>) {
  // expected-error @+1 {{result must keep the alloc shape of the source}}
  %0 = ttg.memdesc_subslice %arg0[16, 0] : !ttg.memdesc<32x32xf32, #shared, #smem> -> !ttg.memdesc<16x32xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @subslice_encoding(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem>) {
  // expected-error @+1 {{result must have the encoding of the source}}
  %0 = ttg.memdesc_subslice %arg0[16, 0] : !ttg.memdesc<32x32xf32, #shared, #smem> -> !ttg.memdesc<16x32xf32, #shared1, #smem, 32x32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @trans_order(%arg0: !ttg.memdesc<32x16xf32, #shared, #smem>) {
  // expected-error @+1 {{order must be a permutation of the dimensions}}
  %0 = ttg.memdesc_trans %arg0 {order = array<i32: 0, 0>} : !ttg.memdesc<32x16xf32, #shared, #smem> -> !ttg.memdesc<32x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @trans_shape(%arg0: !ttg.memdesc<32x16xf32, #shared, #smem>) {
  // expected-error @+1 {{result dimension 0 must equal source dimension 1}}
  %0 = ttg.memdesc_trans %arg0 {order = array<i32: 1, 0>} : !ttg.memdesc<32x16xf32, #shared, #smem> -> !ttg.memdesc<32x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @reshape_count(%arg0: !ttg.memdesc<32x16xf32, #shared, #smem>) {
  // expected-error @+1 {{source and result must have the same number of elements}}
  %0 = ttg.memdesc_reshape %arg0 : !ttg.memdesc<32x16xf32, #shared, #smem> -> !ttg.memdesc<256xf32, #shared1, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @reinterpret_bits(%arg0: !ttg.memdesc<32x32xf32, #shared, #smem>) {
  // expected-error @+1 {{must preserve the total number of bits}}
  %0 = ttg.memdesc_reinterpret %arg0 : !ttg.memdesc<32x32xf32, #shared, #smem> -> !ttg.memdesc<32x32xf16, #shared, #smem>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_element_type(%arg0: tensor<32x16xi8, #blocked>) {
    // expected-error @+1 {{only bf16 or f16 results are supported}}
    %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_shape(%arg0: tensor<32x16xi8, #blocked>) {
    // expected-error @+1 {{result dimension 1 must be 32 (the source's, doubled along axis 1)}}
    %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x16xbf16, #blocked>
    tt.return
  }
}

// -----

tt.func @partition_warps(%arg0: i32) {
  // expected-error @+1 {{partition #0 number of warps (3) must be a power of 2}}
  ttg.warp_specialize(%arg0)
  default {
    ttg.warp_yield
  }
  partition0(%arg1: i32) num_warps(3) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @partition_argument_type(%arg0: i32) {
  ttg.warp_specialize(%arg0)
  default {
    ttg.warp_yield
  }
  // expected-error @+1 {{partition region #0 argument #0 has type}}
  partition0(%arg1: i64) num_warps(1) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @warp_yield_type(%arg0: i32, %arg1: i64) -> i32 {
  %0 = ttg.warp_specialize(%arg0)
  default {
    // expected-error @+1 {{operand #0 has type}}
    ttg.warp_yield %arg1 : i64
  }
  partition0(%arg2: i32) num_warps(1) {
    ttg.warp_return
  } : (i32) -> i32
  tt.return %0 : i32
}

// -----

tt.func @nested_warp_specialize(%arg0: i32) {
  ttg.warp_specialize(%arg0)
  default {
    // expected-error @+1 {{cannot be nested inside another `ttg.warp_specialize` op}}
    ttg.warp_specialize(%arg0)
    default {
      ttg.warp_yield
    }
    partition0(%arg1: i32) num_warps(1) {
      ttg.warp_return
    } : (i32) -> ()
    ttg.warp_yield
  }
  partition0(%arg1: i32) num_warps(1) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @barrier_space() {
  // expected-error @+1 {{unknown address space 'shared'}}
  ttg.barrier local|shared
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Module settings
//===----------------------------------------------------------------------===//

// The ttg dialect checks its module settings once loaded, here by #smem.
#smem = #ttg.shared_memory
// expected-error @+1 {{has 'ttg.threads-per-warp', which may only be set on a module}}
tt.func @threads_per_warp_on_func() attributes {"ttg.threads-per-warp" = 32 : i32} {
  tt.return
}

// -----

#smem = #ttg.shared_memory
tt.func @num_warps_on_return() {
  // expected-error @+1 {{has 'ttg.num-warps', which may only be set on a module or a tt.func}}
  tt.return {"ttg.num-warps" = 4 : i32}
}

// -----

//===----------------------------------------------------------------------===//
// Encodings against the ops and module that use them
//===----------------------------------------------------------------------===//

// Accepted: a tt.func may run on another number of warps than its module.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @func_num_warps() attributes {"ttg.num-warps" = 8 : i32} {
    %0 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @encoding_rank() {
    // expected-error @+1 {{result #0 has an invalid layout: the encoding has rank 2 but the tensor has rank 1}}
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @encoding_warps() {
    // expected-error @+1 {{spreads over 4 warp(s), but the op runs on 8}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @encoding_lanes() {
    // expected-error @+1 {{has 32 lanes per warp, but the module has 64 ('ttg.threads-per-warp')}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @encoding_ctas() {
    // expected-error @+1 {{spreads over 1 CTA(s), but the module has 2 ('ttg.num-ctas')}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @encoding_without_num_warps() {
  // expected-error @+1 {{cannot tell how many warps run the op: set 'ttg.num-warps' on the module or the tt.func}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @encoding_in_partition() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(2) {
      // expected-error @+1 {{spreads over 4 warp(s), but the op runs on 2}}
      %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @shared_encoding_on_tensor(%arg0: f32) {
    // expected-error @+1 {{a tensor needs a distributed (register) encoding}}
    %0 = tt.splat %arg0 : f32 -> tensor<32xf32, #shared>
    tt.return
  }
}

// -----

#linear = #ttg.generic_linear<{register = [], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[1, 1], [0, 2]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @generic_linear_on_cat(%arg0: tensor<32x4xf32, #linear>) {
    // expected-error @+1 {{'tt.cat' does not accept generic_linear encodings}}
    %0 = tt.cat %arg0, %arg0 : tensor<32x4xf32, #linear> -> tensor<64x4xf32, #linear>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @encoding_shape(%arg0: tensor<3x4xf32, #blocked>) {
    // expected-error @+1 {{every dimension of a tensor with an encoding must be a power of two, got [3, 4]}}
    %0 = ttg.convert_layout %arg0 : tensor<3x4xf32, #blocked> -> tensor<3x4xf32, #blocked1>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @memdesc_encoding_rank() {
  // expected-error @+1 {{the encoding has rank 2 but the memdesc has rank 1}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<32xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
tt.func @memdesc_encoding_ctas() {
  // expected-error @+1 {{spreads over 2 CTA(s), but the module has 1 ('ttg.num-ctas')}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.shared_linear<{offset = [[1], [2], [4]]}, alignment = 16>
#smem = #ttg.shared_memory
tt.func @shared_linear_shape() {
  // expected-error @+1 {{covers [8], but one buffer of the memdesc is [16]}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #shared, #smem, mutable>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Encodings of reduce and gather
//===----------------------------------------------------------------------===//

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reduce_operand_encodings(%x: tensor<128xf32, #blocked>, %y: tensor<128xi32, #blocked1>) {
    // expected-error @+1 {{all operands must have the same encoding}}
    %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
      tt.reduce.return %a, %b : f32, i32
    }) : (tensor<128xf32, #blocked>, tensor<128xi32, #blocked1>) -> (f32, i32)
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @gather_result_encoding(%src: tensor<64xf32, #blocked>, %idx: tensor<32xi32, #blocked>) {
    // expected-error @+1 {{result must have the encoding of the indices}}
    %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<64xf32, #blocked>, tensor<32xi32, #blocked>) -> tensor<32xf32, #blocked1>
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// tt.dot encodings
//===----------------------------------------------------------------------===//

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_one_encoded_operand(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x32xf16>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{a and b must both have an encoding, or neither}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_unencoded_accumulator(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32>) {
    // expected-error @+1 {{the accumulator must have an encoding when a and b have one}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_operand_not_dot_op(%a: tensor<32x32xf16, #blocked>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{operand a must have a #ttg.dot_op encoding}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf16, #blocked> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_operand_index(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{operand a must have a #ttg.dot_op encoding with opIdx = 0, got opIdx = 1}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_operand_parent(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{the #ttg.dot_op encoding of operand a must have the result's encoding as parent}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_kwidth(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{a and b must have the same kWidth, got 2 and 4}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

// Accepted: f32 operands on NVIDIA MMA as tf32.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_mma_tf32(%a: tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<32x32xf32, #mma>) {
    %0 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_mma_ieee(%a: tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{an NVIDIA MMA dot of f32 operands must have inputPrecision = tf32, got ieee}}
    %0 = tt.dot %a, %b, %c : tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

// Hopper MMA takes b, and a unless it is a dot operand of an MMA layout, from shared memory.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_hopper_register_operand(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{operand a cannot be a register tensor}}
    %0 = tt.dot %a, %b, %c : tensor<64x32xf16, #blocked> * tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
    tt.return
  }
}
