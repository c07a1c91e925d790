// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(tritium-cpu-read-tiles-in-place{amx-bf16=true amx-int8=true},canonicalize,cse)" | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(tritium-cpu-read-tiles-in-place,canonicalize,cse)" | FileCheck %s --check-prefix=NOAMX

// The B tile of a bf16 matmul AMX tiles will compute, in a kernel that may share copies: the
// thread's copy of it packed for the tile loads (layout 2, [K/2, N, 2]), packed by the program
// that finds it new; where the cache gives none it is packed from where it lies into a buffer
// of the program's own, and where the tile is not a whole block, from its fill. The matmul
// reads it through a marked generic that unpacks it (the pack pass takes the packed tile back).
// Without AMX the same tile takes the cached copy as it lies.
// CHECK-LABEL: func.func @bf16_b_tile
// CHECK: %[[FLAG:.+]] = llvm.alloca %{{.+}} x i32 : (i64) -> !llvm.ptr
// CHECK: %[[OWN:.+]] = memref.alloc() : memref<32x32x2xbf16>
// CHECK: %[[PACKED:.+]] = scf.if %{{.+}} -> (memref<32x32x2xbf16>) {
// CHECK:   %[[SLOT:.+]] = func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c64_i64, %c32_i64, %c2_i64, %c2_i64, %{{.+}}, %[[FLAG]])
// CHECK:   %[[FOUND:.+]] = llvm.icmp "ne" %[[SLOT]], %{{.+}} : !llvm.ptr
// CHECK:   scf.if %[[FOUND]] -> (memref<32x32x2xbf16>) {
// CHECK:     %[[ROWS:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<32x64xbf16>
// CHECK:     %[[COPY:.+]] = memref.expand_shape %[[ROWS]] {{\[\[}}0], [1, 2]] output_shape [32, 32, 2] : memref<32x64xbf16> into memref<32x32x2xbf16>
// CHECK:     llvm.load %[[FLAG]] : !llvm.ptr -> i32
// CHECK:     scf.if %{{.+}} {
// CHECK:       %[[GROUPED:.+]] = memref.expand_shape %[[VIEW:.+]] {{\[\[}}0, 1], [2]] output_shape [32, 2, 32] : memref<64x32xbf16, strided<[?, 1]>> into memref<32x2x32xbf16, strided<[?, ?, 1]>>
// CHECK:       linalg.transpose ins(%[[GROUPED]] : {{.+}}) outs(%[[COPY]] : memref<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK:     scf.yield %[[COPY]]
// CHECK:   } else {
// CHECK:     linalg.transpose ins(%{{.+}} : memref<32x2x32xbf16, strided<[?, ?, 1]>>) outs(%[[OWN]] : memref<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK:     scf.yield %[[OWN]]
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       memref.store %{{.+}}, %[[BUFFER:.+]][%{{.+}}, %{{.+}}] : memref<64x32xbf16>
// CHECK:   %[[FILLED:.+]] = memref.expand_shape %[[BUFFER]] {{\[\[}}0, 1], [2]] output_shape [32, 2, 32] : memref<64x32xbf16> into memref<32x2x32xbf16>
// CHECK:   linalg.transpose ins(%[[FILLED]] : memref<32x2x32xbf16>) outs(%[[OWN]] : memref<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK:   scf.yield %[[OWN]]
// CHECK: %[[TILE:.+]] = bufferization.to_tensor %[[PACKED]] restrict : memref<32x32x2xbf16> to tensor<32x32x2xbf16>
// CHECK: %[[B:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%[[TILE]] : tensor<32x32x2xbf16>) outs(%{{.+}} : tensor<64x32xbf16>) attrs = {tritium.unpacked_amx_tile}
// CHECK: linalg.matmul ins(%{{.+}}, %[[B]] : tensor<16x64xbf16>, tensor<64x32xbf16>)
// NOAMX-LABEL: func.func @bf16_b_tile
// NOAMX: func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c64_i64, %c32_i64, %c2_i64, %c0_i64, %{{.+}})
// NOAMX-NOT: tritium.unpacked_amx_tile
func.func @bf16_b_tile(%b: !llvm.ptr, %col0: i32, %stride: i32, %a: tensor<16x64xbf16>,
                       %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %buffer = memref.alloc() : memref<64x32xbf16>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %b[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %j32 = arith.index_cast %j : index to i32
      %column = arith.addi %col0, %j32 : i32
      %address = llvm.getelementptr %row_start[%column] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %bits = llvm.load %address {alignment = 2 : i64} : !llvm.ptr -> i16
      %value = arith.bitcast %bits : i16 to bf16
      memref.store %value, %buffer[%i, %j] : memref<64x32xbf16>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<64x32xbf16> to tensor<64x32xbf16>
  %product = linalg.matmul ins(%a, %tile : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %product : tensor<16x32xf32>
}

// -----

// An int8 B tile (a plain i8 load) of an int8 matmul into i32: packed by quads [K/4, N, 4]
// (element bytes 1, layout 2). Without AMX int8 tiles keep their fill.
// CHECK-LABEL: func.func @int8_b_tile
// CHECK: func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c64_i64, %c64_i64, %c1_i64, %c2_i64, %{{.+}})
// CHECK: memref.expand_shape %{{.+}} {{\[\[}}0, 1], [2]] output_shape [16, 4, 64] : memref<64x64xi8, strided<[?, 1]>> into memref<16x4x64xi8, strided<[?, ?, 1]>>
// CHECK: bufferization.to_tensor %{{.+}} restrict : memref<16x64x4xi8> to tensor<16x64x4xi8>
// CHECK: attrs = {tritium.unpacked_amx_tile}
// NOAMX-LABEL: func.func @int8_b_tile
// NOAMX-NOT: tritium_cached_operand_tile
// NOAMX: bufferization.to_tensor %{{.+}} restrict writable : memref<64x64xi8>
func.func @int8_b_tile(%b: !llvm.ptr, %stride: i32, %a: tensor<16x64xi8>,
                       %c: tensor<16x64xi32>) -> tensor<16x64xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buffer = memref.alloc() : memref<64x64xi8>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %b[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %value = llvm.load %address {alignment = 1 : i64} : !llvm.ptr -> i8
      memref.store %value, %buffer[%i, %j] : memref<64x64xi8>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<64x64xi8> to tensor<64x64xi8>
  %product = linalg.matmul ins(%a, %tile : tensor<16x64xi8>, tensor<64x64xi8>) outs(%c : tensor<16x64xi32>) -> tensor<16x64xi32>
  return %product : tensor<16x64xi32>
}

// -----

// A B tile whose matmul AMX tiles do not take (N = 24 is no multiple of 16) is not packed, and
// neither is one of a kernel that stores where it cannot be bounded (a scatter) before its
// tiles are read (no cached copies there).
// CHECK-LABEL: func.func @not_for_tiles
// CHECK-NOT: tritium.unpacked_amx_tile
// CHECK: func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c128_i64, %c24_i64, %c2_i64, %c0_i64, %{{.+}})
// CHECK-NOT: tritium.unpacked_amx_tile
// CHECK-LABEL: func.func @store_first
// CHECK-NOT: tritium.unpacked_amx_tile
// CHECK: return
func.func @not_for_tiles(%b: !llvm.ptr, %stride: i32, %a: tensor<16x128xbf16>,
                         %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %c128 = arith.constant 128 : index
  %buffer = memref.alloc() : memref<128x24xbf16>
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %j = %c0 to %c24 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %b[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %bits = llvm.load %address {alignment = 2 : i64} : !llvm.ptr -> i16
      %value = arith.bitcast %bits : i16 to bf16
      memref.store %value, %buffer[%i, %j] : memref<128x24xbf16>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<128x24xbf16> to tensor<128x24xbf16>
  %product = linalg.matmul ins(%a, %tile : tensor<16x128xbf16>, tensor<128x24xbf16>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %product : tensor<16x24xf32>
}
func.func @store_first(%b: !llvm.ptr, %out: !llvm.ptr, %stride: i32, %where: !llvm.ptr,
                       %a: tensor<16x64xbf16>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c32 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %index_address = llvm.getelementptr %where[%i32] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %index = llvm.load %index_address : !llvm.ptr -> i32
    %address = llvm.getelementptr %out[%index] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %zero, %address : f32, !llvm.ptr
  }
  %buffer = memref.alloc() : memref<64x32xbf16>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %b[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %bits = llvm.load %address {alignment = 2 : i64} : !llvm.ptr -> i16
      %value = arith.bitcast %bits : i16 to bf16
      memref.store %value, %buffer[%i, %j] : memref<64x32xbf16>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<64x32xbf16> to tensor<64x32xbf16>
  %product = linalg.matmul ins(%a, %tile : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %product : tensor<16x32xf32>
}

// -----

// The int8 A tile of a matmul AMX tiles compute is read where it lies when whole, like a bf16
// one (its fill kept for the rest); without AMX an int8 A tile keeps its fill.
// CHECK-LABEL: func.func @int8_a_tile
// CHECK: %[[VIEW:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<16x64xi8, strided<[?, 1]>>
// CHECK: %[[A:.+]] = scf.if %{{.+}} -> (memref<16x64xi8, strided<[?, 1]>>) {
// CHECK:   scf.yield %[[VIEW]]
// CHECK: } else {
// CHECK:       llvm.load %{{.+}} : !llvm.ptr -> i8
// CHECK: bufferization.to_tensor %[[A]] restrict : memref<16x64xi8, strided<[?, 1]>>
// NOAMX-LABEL: func.func @int8_a_tile
// NOAMX-NOT: unrealized_conversion_cast
// NOAMX: bufferization.to_tensor %{{.+}} restrict writable : memref<16x64xi8>
func.func @int8_a_tile(%a: !llvm.ptr, %row0: i32, %stride: i32, %b: tensor<64x16xi8>,
                       %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %buffer = memref.alloc() : memref<16x64xi8>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row = arith.addi %row0, %i32 : i32
      %row_offset = arith.muli %row, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, i8
      %value = llvm.load %address {alignment = 1 : i64} : !llvm.ptr -> i8
      memref.store %value, %buffer[%i, %j] : memref<16x64xi8>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<16x64xi8> to tensor<16x64xi8>
  %product = linalg.matmul ins(%tile, %b : tensor<16x64xi8>, tensor<64x16xi8>) outs(%c : tensor<16x16xi32>) -> tensor<16x16xi32>
  return %product : tensor<16x16xi32>
}

// -----

// B = tl.trans(x) of a bf16 matmul AMX tiles compute (attention's q k^T): x's tile [N, K] is
// cached packed as its transpose (layout 3), where x's row stride is a whole number of 32-bit
// words: a K pair of a column of B is a word of a row of x, so the pack is a transpose of the
// rows' words ([N, K/2] i32 -> [K/2, N] i32, over the packed tile's memory). Where the block is
// not whole, the fill's buffer is packed the same way. The transpose is replaced by the marked
// generic that unpacks the packed tile. Without AMX the tile keeps its fill and the transpose.
// CHECK-LABEL: func.func @transposed_b_tile
// CHECK: %[[STRIDE:.+]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[OWN:.+]] = memref.alloc() : memref<32x32x2xbf16>
// CHECK: %[[ODD:.+]] = arith.remsi %[[STRIDE]], %c2_i64 : i64
// CHECK: %[[WORDS:.+]] = arith.cmpi eq, %[[ODD]], %c0_i64 : i64
// CHECK: %[[WHOLE:.+]] = arith.andi %{{.+}}, %[[WORDS]] : i1
// CHECK: scf.if %[[WHOLE]] -> (memref<32x32x2xbf16>) {
// CHECK:   func.call @tritium_cached_operand_tile(%arg0, %[[STRIDE]], %c32_i64, %c64_i64, %c2_i64, %c3_i64, %{{.+}})
// CHECK:       arith.divsi %[[STRIDE]], %c2_i64 : i64
// CHECK:       linalg.transpose ins(%{{.+}} : memref<32x32xi32, strided<[?, 1]>>) outs(%{{.+}} : memref<32x32xi32>) permutation = [1, 0]
// CHECK:   } else {
// CHECK:     memref.extract_aligned_pointer_as_index %[[OWN]]
// CHECK:     linalg.transpose ins(%{{.+}} : memref<32x32xi32, strided<[?, 1]>>) outs(%{{.+}} : memref<32x32xi32>) permutation = [1, 0]
// CHECK: } else {
// CHECK:   memref.store %{{.+}}, %[[BUFFER:.+]][%{{.+}}, %{{.+}}] : memref<32x64xbf16>
// CHECK:   memref.extract_aligned_pointer_as_index %[[BUFFER]]
// CHECK:   linalg.transpose ins(%{{.+}} : memref<32x32xi32, strided<[?, 1]>>) outs(%{{.+}} : memref<32x32xi32>) permutation = [1, 0]
// CHECK-NOT: linalg.transpose ins(%{{.+}} : tensor
// CHECK: %[[B:.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<32x32x2xbf16>) outs(%{{.+}} : tensor<64x32xbf16>) attrs = {tritium.unpacked_amx_tile}
// CHECK: linalg.matmul ins(%{{.+}}, %[[B]] : tensor<16x64xbf16>, tensor<64x32xbf16>)
// NOAMX-LABEL: func.func @transposed_b_tile
// NOAMX-NOT: tritium.unpacked_amx_tile
// NOAMX: linalg.transpose ins(%{{.+}} : tensor<32x64xbf16>)
func.func @transposed_b_tile(%x: !llvm.ptr, %stride: i32, %a: tensor<16x64xbf16>,
                             %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %buffer = memref.alloc() : memref<32x64xbf16>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %x[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %bits = llvm.load %address {alignment = 2 : i64} : !llvm.ptr -> i16
      %value = arith.bitcast %bits : i16 to bf16
      memref.store %value, %buffer[%i, %j] : memref<32x64xbf16>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<32x64xbf16> to tensor<32x64xbf16>
  %empty = tensor.empty() : tensor<64x32xbf16>
  %b = linalg.transpose ins(%tile : tensor<32x64xbf16>) outs(%empty : tensor<64x32xbf16>) permutation = [1, 0]
  %product = linalg.matmul ins(%a, %b : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %product : tensor<16x32xf32>
}

// -----

// A column-major bf16 B tile (`x @ w.t()` with an nn.Linear weight: `base + k + n * stride`):
// its view [N, K] has B's columns as rows, so it is packed as words of those rows and cached as
// a transposed tile (layout 3); where the block is not whole, the fill gathers it into its
// [K, N] buffer, which is packed as a B. Without AMX the tile keeps its fill.
// CHECK-LABEL: func.func @column_major_b_tile
// CHECK: %[[OWN:.+]] = memref.alloc() : memref<32x32x2xbf16>
// CHECK: func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c32_i64, %c64_i64, %c2_i64, %c3_i64, %{{.+}})
// CHECK: linalg.transpose ins(%{{.+}} : memref<32x32xi32, strided<[?, 1]>>) outs(%{{.+}} : memref<32x32xi32>) permutation = [1, 0]
// CHECK: linalg.transpose ins(%{{.+}} : memref<32x32xi32, strided<[?, 1]>>) outs(%{{.+}} : memref<32x32xi32>) permutation = [1, 0]
// CHECK: } else {
// CHECK:   memref.store %{{.+}}, %[[BUFFER:.+]][%{{.+}}, %{{.+}}] : memref<64x32xbf16>
// CHECK:   %[[FILLED:.+]] = memref.expand_shape %[[BUFFER]] {{\[\[}}0, 1], [2]] output_shape [32, 2, 32]
// CHECK:   linalg.transpose ins(%[[FILLED]] : memref<32x2x32xbf16>) outs(%[[OWN]] : memref<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK: attrs = {tritium.unpacked_amx_tile}
// NOAMX-LABEL: func.func @column_major_b_tile
// NOAMX-NOT: unrealized_conversion_cast
// NOAMX: bufferization.to_tensor %{{.+}} restrict writable : memref<64x32xbf16>
func.func @column_major_b_tile(%w: !llvm.ptr, %stride: i32, %a: tensor<16x64xbf16>,
                               %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %buffer = memref.alloc() : memref<64x32xbf16>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %j32 = arith.index_cast %j : index to i32
      %column_offset = arith.muli %j32, %stride : i32
      %column_start = llvm.getelementptr %w[%column_offset] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %address = llvm.getelementptr %column_start[%i32] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %bits = llvm.load %address {alignment = 2 : i64} : !llvm.ptr -> i16
      %value = arith.bitcast %bits : i16 to bf16
      memref.store %value, %buffer[%i, %j] : memref<64x32xbf16>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<64x32xbf16> to tensor<64x32xbf16>
  %product = linalg.matmul ins(%a, %tile : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %product : tensor<16x32xf32>
}
