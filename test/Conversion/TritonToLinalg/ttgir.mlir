// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// Layouts are erased: convert_layout is the identity.
// CHECK-LABEL: func.func @convert_layout
// CHECK-SAME: (%[[X:[^:]+]]: tensor<32x32xf32>
// CHECK-NEXT: return %[[X]] : tensor<32x32xf32>
tt.func @convert_layout(%x: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked1> attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
  tt.return %0 : tensor<32x32xf32, #blocked1>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// A shared tile is a typed view of a byte buffer; storing a tensor materializes it there;
// loading copies it out.
// CHECK-LABEL: func.func @alloc_store_load
// CHECK: %[[RAW:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1024xi8>
// CHECK: %[[BUF:.+]] = memref.view %[[RAW]][%{{.+}}][] : memref<1024xi8> to memref<16x32xf16>
// CHECK: %[[TILE:.+]] = memref.cast %[[BUF]] : memref<16x32xf16> to memref<16x32xf16, strided<[?, ?], offset: ?>>
// CHECK: bufferization.materialize_in_destination %{{.+}} in writable %[[TILE]]
// CHECK: %[[COPY:.+]] = memref.alloc() : memref<16x32xf16>
// CHECK: memref.copy %[[TILE]], %[[COPY]]
// CHECK: bufferization.to_tensor %[[COPY]] restrict writable
tt.func @alloc_store_load(%x: tensor<16x32xf16, #blocked>) -> tensor<16x32xf16, #blocked> attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
  ttg.local_store %x, %0 : tensor<16x32xf16, #blocked> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
  %1 = ttg.local_load %0 : !ttg.memdesc<16x32xf16, #shared, #smem, mutable> -> tensor<16x32xf16, #blocked>
  ttg.local_dealloc %0 : !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
  tt.return %1 : tensor<16x32xf16, #blocked>
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
// Multi-buffered tiles: memdesc_index, memdesc_subslice and memdesc_trans are views.
// CHECK-LABEL: func.func @views
// CHECK: memref.view %{{.+}}[%{{.+}}][] : memref<2048xi8> to memref<2x16x32xf16>
// CHECK: memref.subview %{{.+}}[%{{.+}}, 0, 0] [1, 16, 32] [1, 1, 1]
// CHECK: memref.subview %{{.+}}[0, 16] [16, 16] [1, 1]
// CHECK: memref.transpose %{{.+}} (d0, d1) -> (d1, d0)
tt.func @views(%i: i32) attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<2x16x32xf16, #shared, #smem, mutable>
  %1 = ttg.memdesc_index %0[%i] : !ttg.memdesc<2x16x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
  %2 = ttg.memdesc_subslice %1[0, 16] : !ttg.memdesc<16x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable, 16x32>
  %3 = ttg.memdesc_trans %2 {order = array<i32: 1, 0>} : !ttg.memdesc<16x16xf16, #shared, #smem, mutable, 16x32> -> !ttg.memdesc<16x16xf16, #shared1, #smem, mutable, 32x16>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// Asynchronous copies complete at once: a masked load loop into the tile; tokens are i32 zeros.
// CHECK-LABEL: func.func @async_copy
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   scf.if %{{.+}} -> (f32) {
// CHECK:     llvm.load
// CHECK:   memref.store %{{.+}}, %{{.+}}[%[[I]]] : memref<64xf32, strided<[?], offset: ?>>
// CHECK-NOT: ttg.
tt.func @async_copy(%p: tensor<64x!tt.ptr<f32>, #blocked>, %m: tensor<64xi1, #blocked>) attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
  %1 = ttg.async_copy_global_to_local %p, %0 mask %m : tensor<64x!tt.ptr<f32>, #blocked> -> <64xf32, #shared, #smem, mutable>
  %2 = ttg.async_commit_group tokens %1
  %3 = ttg.async_wait %2 {num = 0 : i32}
  ttg.barrier local
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// A reshaped tile is the same memory with new sizes; gathers and scatters index the tile.
// CHECK-LABEL: func.func @reshape_gather_scatter
// CHECK: memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [8, 64], strides: [64, 1]
// CHECK: scf.for
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<16x32xf32, strided<[?, ?], offset: ?>>
// CHECK: scf.for
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<16x32xf32, strided<[?, ?], offset: ?>>
tt.func @reshape_gather_scatter(%idx: tensor<16x32xi32, #blocked>, %v: tensor<16x32xf32, #blocked>) -> tensor<16x32xf32, #blocked> attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x32xf32, #shared, #smem, mutable>
  %1 = ttg.memdesc_reshape %0 : !ttg.memdesc<16x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x64xf32, #shared, #smem, mutable>
  %2 = ttg.local_gather %0[%idx] {axis = 1 : i32} : !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, tensor<16x32xi32, #blocked> -> tensor<16x32xf32, #blocked>
  ttg.local_scatter %0[%idx], %v {axis = 1 : i32} : !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, tensor<16x32xi32, #blocked>, tensor<16x32xf32, #blocked>
  tt.return %2 : tensor<16x32xf32, #blocked>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// fp4_to_fp: byte i/2 holds elements i (low nibble) and i+1 (high nibble), decoded exactly.
// CHECK-LABEL: func.func @fp4_to_fp
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<128xbf16>)
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[HALF:.+]] = arith.divui %[[I]], %c2
// CHECK: tensor.extract %{{.+}}[%[[HALF]]] : tensor<64xi8>
// CHECK: arith.remui %[[I]], %c2
// CHECK: arith.shrui %{{.+}}, %c4_i32
// CHECK: arith.truncf %{{.+}} : f32 to bf16
tt.func @fp4_to_fp(%x: tensor<64xi8, #blocked>) -> tensor<128xbf16, #blocked> attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.fp4_to_fp %x {axis = 0 : i32} : tensor<64xi8, #blocked> -> tensor<128xbf16, #blocked>
  tt.return %0 : tensor<128xbf16, #blocked>
}

// -----

// A pipeline stage runs while iv < ub - (maxStage - stage) * step.
// CHECK-LABEL: func.func @predicate_stage
// CHECK-SAME: (%[[IV:[^:]+]]: i32, %[[UB:[^:]+]]: i32, %[[STEP:[^:]+]]: i32
// CHECK: %[[LEFT:.+]] = arith.constant 2 : i32
// CHECK: %[[SPAN:.+]] = arith.muli %[[LEFT]], %[[STEP]] : i32
// CHECK: %[[LAST:.+]] = arith.subi %[[UB]], %[[SPAN]] : i32
// CHECK: arith.cmpi slt, %[[IV]], %[[LAST]] : i32
tt.func @predicate_stage(%iv: i32, %ub: i32, %step: i32) -> i1 {
  %0 = ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 0 : i32 -> i1
  tt.return %0 : i1
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A masked region is an scf.if; its results are zero when the predicate is false.
// CHECK-LABEL: func.func @mask
// CHECK: scf.if %{{.+}} -> (tensor<128xf32>) {
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: } else {
// CHECK: arith.constant dense<0.000000e+00> : tensor<128xf32>
tt.func @mask(%p: i1, %x: tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked> attributes {"ttg.num-warps" = 4 : i32} {
  %0 = "ttg.mask"(%p) ({
    %1 = arith.addf %x, %x : tensor<128xf32, #blocked>
    ttg.mask.return %1 : tensor<128xf32, #blocked>
  }) : (i1) -> tensor<128xf32, #blocked>
  tt.return %0 : tensor<128xf32, #blocked>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// Shared-memory atomics are plain read-modify-writes of the program's own tile; the result
// holds the values seen before.
// CHECK-LABEL: func.func @local_atomic_scatter_rmw
// CHECK: scf.for %[[I:.+]] =
// CHECK: %[[AT:.+]] = arith.index_cast %{{.+}} : i32 to index
// CHECK: %[[OLD:.+]] = memref.load %[[TILE:.+]][%[[AT]]]
// CHECK: %[[NEW:.+]] = arith.addf %[[OLD]], %{{.+}} : f32
// CHECK: memref.store %[[NEW]], %[[TILE]][%[[AT]]]
// CHECK: memref.store %[[OLD]], %{{.+}}[%[[I]]]
tt.func @local_atomic_scatter_rmw(%v: tensor<128xf32, #blocked>, %i: tensor<128xi32, #blocked>) -> tensor<128xf32, #blocked> attributes {"ttg.num-warps" = 4 : i32} {
  %m = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
  %0 = ttg.local_atomic_scatter_rmw fadd, %m[%i], %v {axis = 0 : i32} : (!ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xf32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xf32, #blocked>
  tt.return %0 : tensor<128xf32, #blocked>
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// memdesc_reinterpret views the same bytes, at the source's byte offset, as another type.
// CHECK-LABEL: func.func @memdesc_reinterpret
// CHECK: %[[RAW:.+]] = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// CHECK: %[[TILE:.+]] = memref.cast %{{.+}} : memref<8x8xf32, strided<[?, ?], offset: ?>> to memref<8x8xf32, strided<[?, ?], offset: ?>>
// CHECK: %{{.+}}, %[[OFFSET:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[TILE]]
// CHECK: %[[BYTES:.+]] = arith.muli %[[OFFSET]], %c4
// CHECK: memref.view %[[RAW]][%[[BYTES]]][] : memref<512xi8> to memref<8x8xi32>
tt.func @memdesc_reinterpret(%i: i32) attributes {"ttg.num-warps" = 4 : i32} {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<2x8x8xf32, #shared, #smem, mutable>
  %1 = ttg.memdesc_index %0[%i] : !ttg.memdesc<2x8x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf32, #shared, #smem, mutable>
  %2 = ttg.memdesc_reinterpret %1 : !ttg.memdesc<8x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x8xi32, #shared, #smem, mutable>
  tt.return
}
