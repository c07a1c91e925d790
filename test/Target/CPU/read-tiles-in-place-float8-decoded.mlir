// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(tritium-cpu-read-tiles-in-place{amx-bf16=true},canonicalize,cse)" | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(tritium-cpu-read-tiles-in-place,canonicalize,cse)" | FileCheck %s --check-prefix=NOAMX

// fp8 tiles widened to bf16 for a matmul AMX tiles compute (tritium-cpu-float8-matmuls-as-bf16),
// in a kernel that may share copies. A (e4m3fn, format 1): the thread's copy decoded to bf16
// once (layout 16 + 2 * 1 = 18, element bytes 2), decoded from where the tile lies when the
// cache gives none, and from the fill's buffer when the tile is not a whole block. B (e5m2,
// format 0): decoded and packed for the tile loads (layout 17, [K/2, N, 2]), read through the
// marked unpacking generic. The fp8 addresses step by i8, the type the fill loads.
// Without AMX nothing changes: the tiles are filled and widened as before.
// CHECK-LABEL: func.func @float8_tiles
// CHECK: memref.alloc() : memref<32x64xbf16>
// CHECK: %[[A:.+]] = scf.if %{{.+}} -> (memref<32x64xbf16, strided<[?, 1]>>) {
// CHECK:   %[[SLOT:.+]] = func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c32_i64, %c64_i64, %c2_i64, %c18_i64, %{{.+}})
// CHECK:   scf.if %{{.+}} -> (memref<32x64xbf16, strided<[?, 1]>>) {
// CHECK:     %[[COPY:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<32x64xbf16>
// CHECK:     scf.if %{{.+}} {
// CHECK:       linalg.generic {{.+}} ins(%{{.+}} : memref<32x64xf8E4M3FN, strided<[?, 1]>>) outs(%[[COPY]] : memref<32x64xbf16>)
// CHECK:         arith.extf %{{.+}} : f8E4M3FN to bf16
// CHECK:   } else {
// CHECK:     linalg.generic {{.+}} ins(%{{.+}} : memref<32x64xf8E4M3FN, strided<[?, 1]>>) outs(%{{.+}} : memref<32x64xbf16>)
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     memref.store %{{.+}}, %[[FILLED:.+]][%{{.+}}, %{{.+}}] : memref<32x64xf8E4M3FN>
// CHECK:   linalg.generic {{.+}} ins(%[[FILLED]] : memref<32x64xf8E4M3FN>) outs(%{{.+}} : memref<32x64xbf16>)
// CHECK: func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c64_i64, %c32_i64, %c2_i64, %c17_i64, %{{.+}})
// CHECK: arith.extf %{{.+}} : f8E5M2 to bf16
// CHECK: linalg.transpose ins(%{{.+}} : memref<32x2x32xbf16>) outs(%{{.+}} : memref<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK: %[[A_TILE:.+]] = bufferization.to_tensor %[[A]] restrict : memref<32x64xbf16, strided<[?, 1]>> to tensor<32x64xbf16>
// CHECK: %[[B:.+]] = linalg.generic {{.+}} attrs = {tritium.unpacked_amx_tile}
// CHECK-NOT: arith.extf %{{.+}} : tensor
// CHECK: linalg.matmul ins(%[[A_TILE]], %[[B]] : tensor<32x64xbf16>, tensor<64x32xbf16>)
// NOAMX-LABEL: func.func @float8_tiles
// NOAMX-NOT: tritium_cached_operand_tile
// NOAMX: arith.extf %{{.+}} : tensor<32x64xf8E4M3FN> to tensor<32x64xbf16>
// NOAMX: arith.extf %{{.+}} : tensor<64x32xf8E5M2> to tensor<64x32xbf16>
func.func @float8_tiles(%a: !llvm.ptr, %b: !llvm.ptr, %stride: i32, %k_left: i32,
                        %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i8
  %a_buffer = memref.alloc() : memref<32x64xf8E4M3FN>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %inside = arith.cmpi slt, %j32, %k_left : i32
      %bits = scf.if %inside -> (i8) {
        %loaded = llvm.load %address {alignment = 1 : i64} : !llvm.ptr -> i8
        scf.yield %loaded : i8
      } else {
        scf.yield %zero : i8
      }
      %value = arith.bitcast %bits : i8 to f8E4M3FN
      memref.store %value, %a_buffer[%i, %j] : memref<32x64xf8E4M3FN>
    }
  }
  %a_tile = bufferization.to_tensor %a_buffer restrict writable : memref<32x64xf8E4M3FN> to tensor<32x64xf8E4M3FN>
  %b_buffer = memref.alloc() : memref<64x32xf8E5M2>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %b[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %bits = llvm.load %address {alignment = 1 : i64} : !llvm.ptr -> i8
      %value = arith.bitcast %bits : i8 to f8E5M2
      memref.store %value, %b_buffer[%i, %j] : memref<64x32xf8E5M2>
    }
  }
  %b_tile = bufferization.to_tensor %b_buffer restrict writable : memref<64x32xf8E5M2> to tensor<64x32xf8E5M2>
  %a16 = arith.extf %a_tile : tensor<32x64xf8E4M3FN> to tensor<32x64xbf16>
  %b16 = arith.extf %b_tile : tensor<64x32xf8E5M2> to tensor<64x32xbf16>
  %product = linalg.matmul ins(%a16, %b16 : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %product : tensor<32x32xf32>
}

// -----

// A tile widened for anything else (here, read by two ops) keeps its fill and widening.
// CHECK-LABEL: func.func @widening_read_twice
// CHECK-NOT: tritium_cached_operand_tile
// CHECK: arith.extf %{{.+}} : tensor<32x64xf8E4M3FN> to tensor<32x64xbf16>
func.func @widening_read_twice(%a: !llvm.ptr, %stride: i32, %b: tensor<64x32xbf16>,
                               %c: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x64xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %a_buffer = memref.alloc() : memref<32x64xf8E4M3FN>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %bits = llvm.load %address {alignment = 1 : i64} : !llvm.ptr -> i8
      %value = arith.bitcast %bits : i8 to f8E4M3FN
      memref.store %value, %a_buffer[%i, %j] : memref<32x64xf8E4M3FN>
    }
  }
  %a_tile = bufferization.to_tensor %a_buffer restrict writable : memref<32x64xf8E4M3FN> to tensor<32x64xf8E4M3FN>
  %a16 = arith.extf %a_tile : tensor<32x64xf8E4M3FN> to tensor<32x64xbf16>
  %product = linalg.matmul ins(%a16, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %product, %a16 : tensor<32x32xf32>, tensor<32x64xbf16>
}
