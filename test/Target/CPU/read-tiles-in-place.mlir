// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(tritium-cpu-read-tiles-in-place,canonicalize,cse)" | FileCheck %s

// A K step of a blocked matmul: the A tile is rows `row0 + i` of A (row stride %stride), columns
// `j` shifted by the K step's offset, masked by `j < %k_left`. Where the mask holds at the tile's
// corners and no i32 index leaves int32 there, the matmul reads a strided view of A; otherwise
// the fill runs.
// CHECK-LABEL: func.func @a_tile
// CHECK: %[[D0:.+]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[BASE:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.insertvalue %[[BASE]], %[[D0]][0]
// CHECK: %[[DESCRIPTOR:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[4, 1]
// CHECK: %[[VIEW:.+]] = builtin.unrealized_conversion_cast %[[DESCRIPTOR]] : {{.+}} to memref<8x16xf32, strided<[?, 1]>>
// CHECK: %[[A:.+]] = scf.if %{{.+}} -> (memref<8x16xf32, strided<[?, 1]>>) {
// CHECK:   scf.yield %[[VIEW]]
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       llvm.load
// CHECK:       memref.store
// CHECK:   %[[COPY:.+]] = memref.cast %[[BUFFER:.+]] : memref<8x16xf32> to memref<8x16xf32, strided<[?, 1]>>
// CHECK:   scf.yield %[[COPY]]
// CHECK: %[[TILE:.+]] = bufferization.to_tensor %[[A]] restrict : memref<8x16xf32, strided<[?, 1]>>
// CHECK: linalg.matmul ins(%[[TILE]], %{{.+}} : tensor<8x16xf32>, tensor<16x4xf32>)
func.func @a_tile(%a: !llvm.ptr, %row0: i32, %stride: i32, %k_offset: i64, %k_left: i32,
                  %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buffer = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row = arith.addi %row0, %i32 : i32
      %row_offset = arith.muli %row, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %element = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %address = llvm.getelementptr %element[%k_offset] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %inside = arith.cmpi slt, %j32, %k_left : i32
      %value = scf.if %inside -> (f32) {
        %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %loaded : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %value, %buffer[%i, %j] : memref<8x16xf32>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<8x16xf32> to tensor<8x16xf32>
  %product = linalg.matmul ins(%tile, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %product : tensor<8x4xf32>
}

// -----

// The conditions, checked at the tile's corners: each i32 value computed in the nest within
// int32 (the row `row0 + i` and its offset `(row0 + i) * stride`), and the mask `j < k_left`
// at the first and the last column.
// CHECK-LABEL: func.func @corner_checks
// CHECK-DAG: %[[MIN:.+]] = arith.constant -2147483648 : i64
// CHECK-DAG: %[[MAX:.+]] = arith.constant 2147483647 : i64
// CHECK-DAG: %[[LAST_COLUMN:.+]] = arith.constant 15 : i64
// CHECK-DAG: %[[LAST_ROW:.+]] = arith.constant 7 : i64
// CHECK: %[[ROW0:.+]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[STRIDE:.+]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[FIRST_OFFSET:.+]] = arith.muli %[[STRIDE]], %[[ROW0]] : i64
// CHECK: %[[K_LEFT:.+]] = arith.extsi %arg3 : i32 to i64
// CHECK: arith.cmpi sge, %[[ROW0]], %[[MIN]] : i64
// CHECK: arith.cmpi sle, %[[FIRST_OFFSET]], %[[MAX]] : i64
// CHECK: arith.cmpi sgt, %[[K_LEFT]], %[[LAST_COLUMN]] : i64
// CHECK: %[[LAST_ROW_INDEX:.+]] = arith.addi %[[ROW0]], %[[LAST_ROW]] : i64
// CHECK: arith.cmpi sle, %[[LAST_ROW_INDEX]], %[[MAX]] : i64
// CHECK: %[[LAST_ROW_STEP:.+]] = arith.muli %[[STRIDE]], %[[LAST_ROW]] : i64
// CHECK: %[[LAST_OFFSET:.+]] = arith.addi %[[FIRST_OFFSET]], %[[LAST_ROW_STEP]] : i64
// CHECK: arith.cmpi sge, %[[LAST_OFFSET]], %[[MIN]] : i64
// CHECK: arith.cmpi sle, %[[LAST_OFFSET]], %[[MAX]] : i64
// CHECK: llvm.getelementptr %arg0[%[[FIRST_OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
func.func @corner_checks(%a: !llvm.ptr, %row0: i32, %stride: i32, %k_left: i32,
                         %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buffer = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row = arith.addi %row0, %i32 : i32
      %row_offset = arith.muli %row, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %inside = arith.cmpi slt, %j32, %k_left : i32
      %value = scf.if %inside -> (f32) {
        %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %loaded : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %value, %buffer[%i, %j] : memref<8x16xf32>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<8x16xf32> to tensor<8x16xf32>
  %product = linalg.matmul ins(%tile, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %product : tensor<8x4xf32>
}

// -----

// A tile of a column-major A (`a + i + j * stride`: consecutive rows are consecutive elements):
// where the corners check out, the buffer is filled by a transpose of a view whose rows are the
// tile's columns (run by register blocks later) instead of the gathering fill; the matmul still
// reads the buffer.
// CHECK-LABEL: func.func @column_major_a_tile
// CHECK: %[[VIEW:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<16x8xf32, strided<[?, 1]>>
// CHECK: scf.if %{{.+}} {
// CHECK:   linalg.transpose ins(%[[VIEW]] : memref<16x8xf32, strided<[?, 1]>>) outs(%[[BUFFER:.+]] : memref<8x16xf32>) permutation = [1, 0]
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     llvm.load
// CHECK:     memref.store %{{.+}}, %[[BUFFER]]
// CHECK: %[[TILE:.+]] = bufferization.to_tensor %[[BUFFER]] restrict writable
// CHECK: linalg.matmul ins(%[[TILE]], %{{.+}} : tensor<8x16xf32>, tensor<16x4xf32>)
func.func @column_major_a_tile(%a: !llvm.ptr, %stride: i32, %b: tensor<16x4xf32>,
                               %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %transposed = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %j32 = arith.index_cast %j : index to i32
      %column_offset = arith.muli %j32, %stride : i32
      %column_start = llvm.getelementptr %a[%column_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %address = llvm.getelementptr %column_start[%i32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
      memref.store %loaded, %transposed[%i, %j] : memref<8x16xf32>
    }
  }
  %tile = bufferization.to_tensor %transposed restrict writable : memref<8x16xf32> to tensor<8x16xf32>
  %product = linalg.matmul ins(%tile, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %product : tensor<8x4xf32>
}

// -----

// Left as they are: a tile in which neither consecutive rows nor consecutive columns are
// consecutive elements, and a tile whose mask is `!=` (true at the corners says nothing about
// the elements between).
// CHECK-LABEL: func.func @not_strided_blocks
// CHECK-NOT: unrealized_conversion_cast
// CHECK: return
func.func @not_strided_blocks(%a: !llvm.ptr, %stride: i32, %skip: i32,
                              %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c2_i32 = arith.constant 2 : i32
  %zero = arith.constant 0.0 : f32
  %spread = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %j32 = arith.index_cast %j : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %every_other = arith.muli %j32, %c2_i32 : i32
      %address = llvm.getelementptr %row_start[%every_other] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
      memref.store %loaded, %spread[%i, %j] : memref<8x16xf32>
    }
  }
  %tile = bufferization.to_tensor %spread restrict writable : memref<8x16xf32> to tensor<8x16xf32>
  %first = linalg.matmul ins(%tile, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %holey = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row_offset = arith.muli %i32, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %inside = arith.cmpi ne, %j32, %skip : i32
      %value = scf.if %inside -> (f32) {
        %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %loaded : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %value, %holey[%i, %j] : memref<8x16xf32>
    }
  }
  %tile2 = bufferization.to_tensor %holey restrict writable : memref<8x16xf32> to tensor<8x16xf32>
  %second = linalg.matmul ins(%tile2, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%first : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %second : tensor<8x4xf32>
}

// -----

// A flash-attention step's tiles: K (rows `key0 + i`, row stride %stride), only transposed, and
// V, the product's B. Both are read in place; B only where its rows are at most twice its width
// apart (`stride <= 2 * 8`), since a B tile whose rows are a matrix row apart aliases in L1.
// CHECK-LABEL: func.func @attention_tiles
// CHECK-DAG: %[[TWICE_WIDTH:.+]] = arith.constant 16 : i64
// CHECK: %[[K:.+]] = scf.if %{{.+}} -> (memref<4x8xf32, strided<[?, 1]>>) {
// CHECK: %[[K_TILE:.+]] = bufferization.to_tensor %[[K]] restrict
// CHECK: linalg.transpose ins(%[[K_TILE]] : tensor<4x8xf32>)
// CHECK: %[[COMPACT:.+]] = arith.cmpi sle, %{{.+}}, %[[TWICE_WIDTH]] : i64
// CHECK: %[[V_CONDITION:.+]] = arith.andi %{{.+}}, %[[COMPACT]] : i1
// CHECK: %[[V:.+]] = scf.if %[[V_CONDITION]] -> (memref<4x8xf32, strided<[?, 1]>>) {
// CHECK: %[[V_TILE:.+]] = bufferization.to_tensor %[[V]] restrict
// CHECK: linalg.matmul ins(%{{.+}}, %[[V_TILE]] : tensor<4x4xf32>, tensor<4x8xf32>)
func.func @attention_tiles(%k: !llvm.ptr, %v: !llvm.ptr, %key0: i32, %stride: i32,
                           %p: tensor<4x4xf32>, %acc: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %k_buffer = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row = arith.addi %key0, %i32 : i32
      %row_offset = arith.muli %row, %stride : i32
      %row_start = llvm.getelementptr %k[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
      memref.store %loaded, %k_buffer[%i, %j] : memref<4x8xf32>
    }
  }
  %k_tile = bufferization.to_tensor %k_buffer restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %empty = tensor.empty() : tensor<8x4xf32>
  %k_transposed = linalg.transpose ins(%k_tile : tensor<4x8xf32>) outs(%empty : tensor<8x4xf32>) permutation = [1, 0]
  %v_buffer = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row = arith.addi %key0, %i32 : i32
      %row_offset = arith.muli %row, %stride : i32
      %row_start = llvm.getelementptr %v[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %loaded = llvm.load %address {alignment = 4 : i64} : !llvm.ptr -> f32
      memref.store %loaded, %v_buffer[%i, %j] : memref<4x8xf32>
    }
  }
  %v_tile = bufferization.to_tensor %v_buffer restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %out = linalg.matmul ins(%p, %v_tile : tensor<4x4xf32>, tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %k_transposed, %out : tensor<8x4xf32>, tensor<4x8xf32>
}

// -----

// A tile of at least 4 KB whose rows may lie far apart, in a kernel that uses no atomics: where
// the rows are close together the matmul reads the tile in place; otherwise it reads the
// thread's cached copy, which it fills first when the lookup says the copy is new; where the
// cache gives none, an A tile is read in place. The copy may be read until one more lookup
// (the window, 2: the function's one lookup and one).
// CHECK: func.func private @tritium_cached_operand_tile(!llvm.ptr, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-LABEL: func.func @cached_a_tile
// CHECK: %[[FLAG:.+]] = llvm.alloca %{{.+}} x i32 : (i64) -> !llvm.ptr
// CHECK: %[[VIEW:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<32x32xf32, strided<[?, 1]>>
// CHECK: scf.if %{{.+}} -> (memref<32x32xf32, strided<[?, 1]>>) {
// CHECK:   scf.if %{{.+}} -> (memref<32x32xf32, strided<[?, 1]>>) {
// CHECK:     scf.yield %[[VIEW]]
// CHECK:   } else {
// CHECK:     %[[SLOT:.+]] = func.call @tritium_cached_operand_tile(%{{.+}}, %{{.+}}, %c32_i64, %c32_i64, %c4_i64, %c0_i64, %c2_i64, %[[FLAG]])
// CHECK:     %[[FOUND:.+]] = llvm.icmp "ne" %[[SLOT]], %{{.+}} : !llvm.ptr
// CHECK:     scf.if %[[FOUND]] -> (memref<32x32xf32, strided<[?, 1]>>) {
// CHECK:       %[[COPY:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<32x32xf32>
// CHECK:       llvm.load %[[FLAG]] : !llvm.ptr -> i32
// CHECK:       scf.if %{{.+}} {
// CHECK:         linalg.copy ins(%[[VIEW]] : memref<32x32xf32, strided<[?, 1]>>) outs(%[[COPY]] : memref<32x32xf32>)
// CHECK:       memref.cast %[[COPY]] : memref<32x32xf32> to memref<32x32xf32, strided<[?, 1]>>
// CHECK:     } else {
// CHECK:       scf.yield %[[VIEW]]
// CHECK: } else {
// CHECK:   scf.for
// CHECK: linalg.matmul
// CHECK: llvm.store
func.func @cached_a_tile(%a: !llvm.ptr, %out: !llvm.ptr, %stride: i32, %b: tensor<32x4xf32>,
                         %c: tensor<32x4xf32>) -> tensor<32x4xf32> {
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
  %product = linalg.matmul ins(%tile, %b : tensor<32x32xf32>, tensor<32x4xf32>) outs(%c : tensor<32x4xf32>) -> tensor<32x4xf32>
  %zero = arith.constant 0.0 : f32
  llvm.store %zero, %out : f32, !llvm.ptr
  return %product : tensor<32x4xf32>
}

// -----

// No cached copies where a program writes memory whose range cannot be bounded before it reads
// its tiles (it must read what it wrote: here a scatter through loaded indices), or
// synchronises with other programs through atomics.
// CHECK-LABEL: func.func @store_before_the_tile
// CHECK-NOT: tritium_cached_operand_tile
// CHECK-NOT: tritium_note_written_range
// CHECK-LABEL: func.func @atomic_after_the_tile
// CHECK-NOT: tritium_cached_operand_tile
func.func @store_before_the_tile(%a: !llvm.ptr, %out: !llvm.ptr, %stride: i32, %where: !llvm.ptr,
                                 %b: tensor<32x4xf32>, %c: tensor<32x4xf32>) -> tensor<32x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c32 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %index_address = llvm.getelementptr %where[%i32] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %index = llvm.load %index_address : !llvm.ptr -> i32
    %address = llvm.getelementptr %out[%index] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %zero, %address : f32, !llvm.ptr
  }
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
  %product = linalg.matmul ins(%tile, %b : tensor<32x32xf32>, tensor<32x4xf32>) outs(%c : tensor<32x4xf32>) -> tensor<32x4xf32>
  return %product : tensor<32x4xf32>
}
func.func @atomic_after_the_tile(%a: !llvm.ptr, %out: !llvm.ptr, %stride: i32,
                                 %b: tensor<32x4xf32>, %c: tensor<32x4xf32>) -> tensor<32x4xf32> {
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
  %product = linalg.matmul ins(%tile, %b : tensor<32x32xf32>, tensor<32x4xf32>) outs(%c : tensor<32x4xf32>) -> tensor<32x4xf32>
  %one = arith.constant 1.0 : f32
  %old = llvm.atomicrmw fadd %out, %one monotonic : !llvm.ptr, f32
  return %product : tensor<32x4xf32>
}

// -----

// A bf16 A tile, loaded as i16 and stored through a bitcast: read in place like an f32 one (its
// consumer packs or widens it, reading each element once). An int8 tile keeps its fill unless
// AMX tiles compute its matmul (read-tiles-in-place-packed-for-amx.mlir).
// CHECK-LABEL: func.func @bf16_a_tile
// CHECK: %[[VIEW:.+]] = builtin.unrealized_conversion_cast %{{.+}} to memref<16x32xbf16, strided<[?, 1]>>
// CHECK: %[[A:.+]] = scf.if %{{.+}} -> (memref<16x32xbf16, strided<[?, 1]>>) {
// CHECK:   scf.yield %[[VIEW]]
// CHECK: } else {
// CHECK:       llvm.load %{{.+}} : !llvm.ptr -> i16
// CHECK:       arith.bitcast %{{.+}} : i16 to bf16
// CHECK: bufferization.to_tensor %[[A]] restrict : memref<16x32xbf16, strided<[?, 1]>>
func.func @bf16_a_tile(%a: !llvm.ptr, %row0: i32, %stride: i32, %b: tensor<32x16xbf16>,
                       %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %buffer = memref.alloc() : memref<16x32xbf16>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %row = arith.addi %row0, %i32 : i32
      %row_offset = arith.muli %row, %stride : i32
      %row_start = llvm.getelementptr %a[%row_offset] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %j32 = arith.index_cast %j : index to i32
      %address = llvm.getelementptr %row_start[%j32] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
      %bits = llvm.load %address {alignment = 2 : i64} : !llvm.ptr -> i16
      %value = arith.bitcast %bits : i16 to bf16
      memref.store %value, %buffer[%i, %j] : memref<16x32xbf16>
    }
  }
  %tile = bufferization.to_tensor %buffer restrict writable : memref<16x32xbf16> to tensor<16x32xbf16>
  %product = linalg.matmul ins(%tile, %b : tensor<16x32xbf16>, tensor<32x16xbf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %product : tensor<16x16xf32>
}
