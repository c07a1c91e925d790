// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// Layouts are erased: convert_layout is the identity.
// CHECK-LABEL: func.func @convert_layout
// CHECK-SAME: (%[[X:[^:]+]]: tensor<32x32xf32>
// CHECK-NEXT: return %[[X]] : tensor<32x32xf32>
tt.func @convert_layout(%x: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked1> {
  %0 = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
  tt.return %0 : tensor<32x32xf32, #blocked1>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// A shared tile is a buffer; storing a tensor materializes it there; loading copies it out.
// CHECK-LABEL: func.func @alloc_store_load
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<16x32xf16>
// CHECK: %[[TILE:.+]] = memref.cast %[[BUF]] : memref<16x32xf16> to memref<16x32xf16, strided<[?, ?], offset: ?>>
// CHECK: bufferization.materialize_in_destination %{{.+}} in writable %[[TILE]]
// CHECK: %[[COPY:.+]] = memref.alloc() : memref<16x32xf16>
// CHECK: memref.copy %[[TILE]], %[[COPY]]
// CHECK: bufferization.to_tensor %[[COPY]] restrict writable
tt.func @alloc_store_load(%x: tensor<16x32xf16, #blocked>) -> tensor<16x32xf16, #blocked> {
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
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<2x16x32xf16>
// CHECK: memref.subview %{{.+}}[%{{.+}}, 0, 0] [1, 16, 32] [1, 1, 1]
// CHECK: memref.subview %{{.+}}[0, 16] [16, 16] [1, 1]
// CHECK: memref.transpose %{{.+}} (d0, d1) -> (d1, d0)
tt.func @views(%i: i32) {
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
tt.func @async_copy(%p: tensor<64x!tt.ptr<f32>, #blocked>, %m: tensor<64xi1, #blocked>) {
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
tt.func @reshape_gather_scatter(%idx: tensor<16x32xi32, #blocked>, %v: tensor<16x32xf32, #blocked>) -> tensor<16x32xf32, #blocked> {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x32xf32, #shared, #smem, mutable>
  %1 = ttg.memdesc_reshape %0 : !ttg.memdesc<16x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x64xf32, #shared, #smem, mutable>
  %2 = ttg.local_gather %0[%idx] {axis = 1 : i32} : !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, tensor<16x32xi32, #blocked> -> tensor<16x32xf32, #blocked>
  ttg.local_scatter %0[%idx], %v {axis = 1 : i32} : !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, tensor<16x32xi32, #blocked>, tensor<16x32xf32, #blocked>
  tt.return %2 : tensor<16x32xf32, #blocked>
}
