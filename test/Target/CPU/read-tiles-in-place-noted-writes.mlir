// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(tritium-cpu-read-tiles-in-place,canonicalize,cse)" | FileCheck %s

// A persistent matmul's loop over output tiles: each tile's A block is read from the thread's
// cached copy, and the tile's result is stored in the same loop, before the next tile's reads.
// The store nest's bytes are noted before it runs, from its address at the nest's corners
// (rows 32 * t + [0, 31] of %out, %ldo apart, columns [0, 3]), so that the cache drops the
// copies they overlap. The function's one lookup may have its copy read until one more lookup.
// CHECK: func.func private @tritium_note_written_range(i64, i64)
// CHECK-LABEL: func.func @tiles_stored_in_the_loop
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c32_i64, %c32_i64, %c4_i64, %c0_i64, %c2_i64, %{{.+}})
// CHECK:   linalg.matmul
// CHECK:   arith.minsi
// CHECK:   arith.maxsi
// CHECK:   %[[BASE:.+]] = llvm.ptrtoint %arg1 : !llvm.ptr to i64
// CHECK:   %[[FIRST:.+]] = arith.addi %[[BASE]], %{{.+}} : i64
// CHECK:   %[[END:.+]] = arith.addi %[[BASE]], %{{.+}} : i64
// CHECK:   %[[FIRST_OR_ALL:.+]] = arith.select %{{.+}}, %[[FIRST]], %c0_i64 : i64
// CHECK:   %[[END_OR_ALL:.+]] = arith.select %{{.+}}, %[[END]], %c-1_i64 : i64
// CHECK:   func.call @tritium_note_written_range(%[[FIRST_OR_ALL]], %[[END_OR_ALL]]) : (i64, i64) -> ()
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       llvm.store
func.func @tiles_stored_in_the_loop(%a: !llvm.ptr, %out: !llvm.ptr, %stride: i32, %ldo: i32,
                                    %tiles: index, %b: tensor<32x4xf32>, %c: tensor<32x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c32_i32 = arith.constant 32 : i32
  scf.for %t = %c0 to %tiles step %c1 {
    %t32 = arith.index_cast %t : index to i32
    %row0 = arith.muli %t32, %c32_i32 : i32
    %buffer = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %row = arith.addi %row0, %i32 : i32
        %row_offset = arith.muli %row, %stride : i32
        %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %j32 = arith.index_cast %j : index to i32
        %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
        memref.store %loaded, %buffer[%i, %j] : memref<32x32xf32>
      }
    }
    %tile = bufferization.to_tensor %buffer restrict writable : memref<32x32xf32> to tensor<32x32xf32>
    %product = linalg.matmul ins(%tile, %b : tensor<32x32xf32>, tensor<32x4xf32>) outs(%c : tensor<32x4xf32>) -> tensor<32x4xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %row = arith.addi %row0, %i32 : i32
        %row_offset = arith.muli %row, %ldo : i32
        %j32 = arith.index_cast %j : index to i32
        %offset = arith.addi %row_offset, %j32 : i32
        %address = llvm.getelementptr %out[%offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %value = tensor.extract %product[%i, %j] : tensor<32x4xf32>
        llvm.store %value, %address {alignment = 4 : i64} : f32, !llvm.ptr
      }
    }
  }
  return
}

// -----

// A's copy is read after a loop that looks up other tiles: it may be read after any number of
// further lookups (window 0, the whole program), and so may every copy of the function.
// CHECK-LABEL: func.func @lookups_repeated_before_a_read
// CHECK: func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c32_i64, %c32_i64, %c4_i64, %c0_i64, %c0_i64, %{{.+}})
// CHECK: scf.for
// CHECK:   func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c32_i64, %c32_i64, %c4_i64, %c0_i64, %c0_i64, %{{.+}})
func.func @lookups_repeated_before_a_read(%a: !llvm.ptr, %stride: i32, %steps: index,
                                          %b: tensor<32x4xf32>, %c: tensor<32x4xf32>)
    -> (tensor<32x4xf32>, tensor<32x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %buffer = memref.alloc() : memref<32x32xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
      memref.store %loaded, %buffer[%i, %j] : memref<32x32xf32>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<32x32xf32> to tensor<32x32xf32>
  %summed = scf.for %s = %c0 to %steps step %c1 iter_args(%acc = %c) -> (tensor<32x4xf32>) {
    %s32 = arith.index_cast %s : index to i32
    %other = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %row = arith.addi %s32, %i32 : i32
        %row_offset = arith.muli %row, %stride : i32
        %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %j32 = arith.index_cast %j : index to i32
        %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
        memref.store %loaded, %other[%i, %j] : memref<32x32xf32>
      }
    }
    %other_tile = bufferization.to_tensor %other restrict writable : memref<32x32xf32> to tensor<32x32xf32>
    %step = linalg.matmul ins(%other_tile, %b : tensor<32x32xf32>, tensor<32x4xf32>) outs(%acc : tensor<32x4xf32>) -> tensor<32x4xf32>
    scf.yield %step : tensor<32x4xf32>
  }
  %first = linalg.matmul ins(%tile, %b : tensor<32x32xf32>, tensor<32x4xf32>) outs(%c : tensor<32x4xf32>) -> tensor<32x4xf32>
  return %first, %summed : tensor<32x4xf32>, tensor<32x4xf32>
}

// -----

// A kernel whose tiles are too small for the cache (8x16 f32, 512 bytes) looks nothing up and
// notes none of its stores.
// CHECK-LABEL: func.func @small_tiles
// CHECK-NOT: tritium_cached_operand_tile
// CHECK-NOT: tritium_note_written_range
// CHECK: return
func.func @small_tiles(%a: !llvm.ptr, %out: !llvm.ptr, %stride: i32, %b: tensor<16x4xf32>,
                       %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  llvm.store %zero, %out : f32, !llvm.ptr
  %buffer = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
      memref.store %loaded, %buffer[%i, %j] : memref<8x16xf32>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<8x16xf32> to tensor<8x16xf32>
  %product = linalg.matmul ins(%tile, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %product : tensor<8x4xf32>
}
