// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg --canonicalize | FileCheck %s

// The masked tile load of a vector add: each element's address and mask are recomputed in
// the loop from make_range/splat/addptr, and masked lanes take `other` without a load.
// x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.5)
// CHECK-LABEL: func.func @masked_tile_load
// CHECK-SAME: (%[[BASE:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<16xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   %[[OFF:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK:   %[[ADDR:.+]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK:   %[[MASK:.+]] = arith.cmpi slt, %[[OFF]], %[[N]] : i32
// CHECK:   %[[V:.+]] = scf.if %[[MASK]] -> (f32) {
// CHECK:     %[[L:.+]] = llvm.load %[[ADDR]] {{.*}}alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK:     scf.yield %[[L]] : f32
// CHECK:   } else {
// CHECK:     scf.yield %{{.+}} : f32
// CHECK:   memref.store %[[V]], %[[BUF]][%[[I]]] : memref<16xf32>
// CHECK: bufferization.to_tensor %[[BUF]] restrict writable : memref<16xf32> to tensor<16xf32>
tt.func @masked_tile_load(%arg0: !tt.ptr<f32>, %arg1: i32) -> tensor<16xf32> {
  %cst = arith.constant dense<5.000000e-01> : tensor<16xf32>
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %1 = tt.splat %arg1 : i32 -> tensor<16xi32>
  %2 = arith.cmpi slt, %0, %1 : tensor<16xi32>
  %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %4 = tt.addptr %3, %0 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %5 = tt.load %4, %2, %cst : tensor<16x!tt.ptr<f32>>
  tt.return %5 : tensor<16xf32>
}

// -----

// A 2-D store: broadcast and expand_dims become index remapping, the stored value is
// recomputed per element too.
// CHECK-LABEL: func.func @strided_tile_store
// CHECK-SAME: (%[[BASE:[^:]+]]: !llvm.ptr, %[[STRIDE:[^:]+]]: i32
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:     %[[ROW:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK:     %[[ROWOFF:.+]] = arith.muli %[[ROW]], %[[STRIDE]] : i32
// CHECK:     %[[COL:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK:     %[[OFF:.+]] = arith.addi %[[ROWOFF]], %[[COL]] : i32
// CHECK:     %[[ADDR:.+]] = llvm.getelementptr %[[BASE]][%[[OFF]]]
// CHECK:     %[[V:.+]] = arith.sitofp %[[OFF]] : i32 to f32
// CHECK:     llvm.store %[[V]], %[[ADDR]] {{.*}}alignment = 4 : i64} : f32, !llvm.ptr
tt.func @strided_tile_store(%arg0: !tt.ptr<f32>, %arg1: i32) {
  %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %2 = tt.splat %arg1 : i32 -> tensor<4x1xi32>
  %3 = arith.muli %1, %2 : tensor<4x1xi32>
  %4 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %5 = tt.expand_dims %4 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %6 = tt.broadcast %3 : tensor<4x1xi32> -> tensor<4x8xi32>
  %7 = tt.broadcast %5 : tensor<1x8xi32> -> tensor<4x8xi32>
  %8 = arith.addi %6, %7 : tensor<4x8xi32>
  %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %10 = tt.addptr %9, %8 : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
  %11 = arith.sitofp %8 : tensor<4x8xi32> to tensor<4x8xf32>
  tt.store %10, %11 : tensor<4x8x!tt.ptr<f32>>
  tt.return
}

// -----

// Pointers the walk cannot see through (here: loaded indices, a gather) are read back from
// their address tensor.
// CHECK-LABEL: func.func @gather_through_loaded_indices
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   %[[ADDR:.+]] = tensor.extract %{{.+}}[%[[I]]] : tensor<8xi64>
// CHECK:   %[[P:.+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
// CHECK:   llvm.load %[[P]]
tt.func @gather_through_loaded_indices(%arg0: !tt.ptr<f32>, %arg1: tensor<8x!tt.ptr<f32>>) -> tensor<8xf32> {
  %0 = tt.load %arg1 : tensor<8x!tt.ptr<f32>>
  tt.return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @scalar_load_store
// CHECK-SAME: (%[[P:[^:]+]]: !llvm.ptr, %[[M:[^:]+]]: i1
// CHECK: %[[V:.+]] = llvm.load %[[P]] {{.*}}alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: scf.if %[[M]] {
// CHECK:   llvm.store %[[V]], %[[P]] {{.*}}alignment = 8 : i64} : i64, !llvm.ptr
tt.func @scalar_load_store(%arg0: !tt.ptr<i64>, %arg1: i1) {
  %0 = tt.load %arg0 : !tt.ptr<i64>
  tt.store %arg0, %0, %arg1 : !tt.ptr<i64>
  tt.return
}

// -----

// fp8 has no LLVM type: its bytes move as i8 (masked-off lanes take a zero byte) and are
// reinterpreted after the choice.
// CHECK-LABEL: func.func @fp8_copy
// CHECK: %[[CHOSEN:.+]] = scf.if %{{.+}} -> (i8) {
// CHECK:   %[[BYTE:.+]] = llvm.load %{{.+}} {{.*}}alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK:   scf.yield %[[BYTE]] : i8
// CHECK: arith.bitcast %[[CHOSEN]] : i8 to f8E4M3FN
// CHECK: %[[OUT:.+]] = arith.bitcast %{{.+}} : f8E4M3FN to i8
// CHECK: llvm.store %[[OUT]], %{{.+}} {{.*}}alignment = 1 : i64} : i8, !llvm.ptr
tt.func @fp8_copy(%p: tensor<16x!tt.ptr<f8E4M3FN>>, %q: tensor<16x!tt.ptr<f8E4M3FN>>, %m: tensor<16xi1>) {
  %0 = tt.load %p, %m : tensor<16x!tt.ptr<f8E4M3FN>>
  tt.store %q, %0 : tensor<16x!tt.ptr<f8E4M3FN>>
  tt.return
}

// -----

// Column offsets wrapped with `%` (Triton's matmul tutorial) broadcast down the rows of a
// [4, 16] tile. The load is versioned on "the block does not wrap" (0 <= start <= n - 16):
// there the remainder is the range itself, so the columns are consecutive; otherwise the 16
// remainders are computed once, as a tensor, and each element reads its column's. Row offsets
// wrapped the same way and broadcast along the columns are recomputed in place when the block
// wraps (the inner loop does not change them, so they leave it).
// cols = (pid + arange(16)) % n; tl.load(b + rows[:, None] * 16 + cols[None, :])
// CHECK-LABEL: func.func @wrapped_offsets
// CHECK: %[[COLS:.+]] = arith.remsi %{{.+}}, %{{.+}} : tensor<16xi32>
// CHECK: %[[ROW:.+]] = tensor.expand_shape %[[COLS]]
// CHECK: %[[FITS:.+]] = arith.cmpi sge, %arg2, %c16_i32 : i32
// CHECK: %[[LAST:.+]] = arith.subi %arg2, %c16_i32 : i32
// CHECK: %[[INSIDE:.+]] = arith.cmpi sle, %arg3, %[[LAST]] : i32
// CHECK: %[[BOTH:.+]] = arith.andi %[[FITS]], %[[INSIDE]] : i1
// CHECK: %[[NONNEG:.+]] = arith.cmpi sge, %arg3, %c0_i32 : i32
// CHECK: %[[NOWRAP:.+]] = arith.andi %[[BOTH]], %[[NONNEG]] : i1
// CHECK: scf.if %[[NOWRAP]] {
// CHECK:   scf.for %{{.+}} = %c0 to %c4
// CHECK:     scf.for %[[J:.+]] = %c0 to %c16
// CHECK:       %[[JI:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK:       arith.addi %arg3, %[[JI]] : i32
// CHECK-NOT:   tensor.extract
// CHECK:       llvm.load
// CHECK: } else {
// CHECK:   scf.for %{{.+}} = %c0 to %c4
// CHECK:     scf.for %[[J2:.+]] = %c0 to %c16
// CHECK-NOT:   arith.remsi
// CHECK:       tensor.extract %[[ROW]][%c0, %[[J2]]] : tensor<1x16xi32>
// CHECK: scf.if
// CHECK: } else {
// CHECK:   scf.for %{{.+}} = %c0 to %c16
// CHECK:     scf.for %{{.+}} = %c0 to %c4
// CHECK:       arith.remsi %{{.+}}, %{{.+}} : i32
tt.func @wrapped_offsets(%b: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32, %pid: i32) {
  %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %pid : i32 -> tensor<16xi32>
  %shifted = arith.addi %base, %r16 : tensor<16xi32>
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %cols = arith.remsi %shifted, %ns : tensor<16xi32>
  %c16 = arith.constant dense<16> : tensor<4x1xi32>
  %rows = tt.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %rowoffs = arith.muli %rows, %c16 : tensor<4x1xi32>
  %colrow = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %rowoffs : tensor<4x1xi32> -> tensor<4x16xi32>
  %cb = tt.broadcast %colrow : tensor<1x16xi32> -> tensor<4x16xi32>
  %offs = arith.addi %rb, %cb : tensor<4x16xi32>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %offs : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
  %tile = tt.load %bp : tensor<4x16x!tt.ptr<f32>>
  // The same wrapped offsets as rows of a [16, 4] tile.
  %colcol = tt.expand_dims %cols {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c4 = arith.constant dense<4> : tensor<16x1xi32>
  %scaled = arith.muli %colcol, %c4 : tensor<16x1xi32>
  %sb = tt.broadcast %scaled : tensor<16x1xi32> -> tensor<16x4xi32>
  %r4row = tt.expand_dims %r4 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %r4b = tt.broadcast %r4row : tensor<1x4xi32> -> tensor<16x4xi32>
  %offs2 = arith.addi %sb, %r4b : tensor<16x4xi32>
  %bs2 = tt.splat %b : !tt.ptr<f32> -> tensor<16x4x!tt.ptr<f32>>
  %bp2 = tt.addptr %bs2, %offs2 : tensor<16x4x!tt.ptr<f32>>, tensor<16x4xi32>
  %tile2 = tt.load %bp2 : tensor<16x4x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
  tt.store %op, %tile : tensor<4x16x!tt.ptr<f32>>
  %os2 = tt.splat %out : !tt.ptr<f32> -> tensor<16x4x!tt.ptr<f32>>
  %op2 = tt.addptr %os2, %offs2 : tensor<16x4x!tt.ptr<f32>>, tensor<16x4xi32>
  tt.store %op2, %tile2 : tensor<16x4x!tt.ptr<f32>>
  tt.return
}

// -----

// The same wrap with a constant bound, as Inductor's templates write it for static shapes
// (`rm % 512`): versioned on 0 <= start <= 64 - 16 alike, the bound a scalar constant.
// CHECK-LABEL: func.func @wrapped_offsets_constant_bound
// CHECK: %[[INSIDE:.+]] = arith.cmpi sle, %arg2, %c48_i32 : i32
// CHECK: %[[NONNEG:.+]] = arith.cmpi sge, %arg2, %c0_i32 : i32
// CHECK: %[[NOWRAP:.+]] = arith.andi %[[INSIDE]], %[[NONNEG]] : i1
// CHECK: scf.if %[[NOWRAP]] {
// CHECK:   scf.for %{{.+}} = %c0 to %c4
// CHECK:     scf.for %[[J:.+]] = %c0 to %c16
// CHECK-NOT:   tensor.extract
// CHECK:       llvm.load
// CHECK: } else {
tt.func @wrapped_offsets_constant_bound(%b: !tt.ptr<f32>, %out: !tt.ptr<f32>, %pid: i32) {
  %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %pid : i32 -> tensor<16xi32>
  %shifted = arith.addi %base, %r16 : tensor<16xi32>
  %ns = arith.constant dense<64> : tensor<16xi32>
  %cols = arith.remsi %shifted, %ns : tensor<16xi32>
  %c64 = arith.constant dense<64> : tensor<4x1xi32>
  %rows = tt.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %rowoffs = arith.muli %rows, %c64 : tensor<4x1xi32>
  %colrow = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %rowoffs : tensor<4x1xi32> -> tensor<4x16xi32>
  %cb = tt.broadcast %colrow : tensor<1x16xi32> -> tensor<4x16xi32>
  %offs = arith.addi %rb, %cb : tensor<4x16xi32>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %offs : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
  %tile = tt.load %bp : tensor<4x16x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
  tt.store %op, %tile : tensor<4x16x!tt.ptr<f32>>
  tt.return
}
