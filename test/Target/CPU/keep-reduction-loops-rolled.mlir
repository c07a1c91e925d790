// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-keep-reduction-loops-rolled))" | FileCheck %s

// The row sums of a 64x64 tile (a flash-attention step's `tl.sum(p, 1)`): the inner loop
// carries the row's sum from one load of the accumulator to one store, and is kept rolled.
// CHECK-DAG: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[ROLLED:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @row_sums_of_a_tile
// CHECK: scf.for %[[ROW:.+]] =
// CHECK:   %[[START:.+]] = memref.load %[[ACC:.+]][%[[ROW]]] : memref<64xf32>
// CHECK:   %[[SUM:.+]] = scf.for %[[COLUMN:.+]] = {{.+}} iter_args(%[[RUNNING:.+]] = %[[START]]) -> (f32) {
// CHECK:     %[[X:.+]] = memref.load %{{.+}}[%[[ROW]], %[[COLUMN]]] : memref<64x64xf32>
// CHECK:     %[[NEXT:.+]] = arith.addf %[[RUNNING]], %[[X]] fastmath<reassoc> : f32
// CHECK:     scf.yield %[[NEXT]] : f32
// CHECK:   } {llvm.loop_annotation = #[[ROLLED]]}
// CHECK:   memref.store %[[SUM]], %[[ACC]][%[[ROW]]] : memref<64xf32>
func.func @row_sums_of_a_tile(%x: memref<64x64xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %acc = memref.alloca() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x64xf32>
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
  }
  return %acc : memref<64xf32>
}

// -----

// Integer sums reassociate freely; a value computed from the load (here a square) is fine.
// CHECK-LABEL: func.func @row_sums_of_squares_i32
// CHECK: scf.for {{.+}} iter_args
// CHECK:   arith.muli
// CHECK:   arith.addi
// CHECK: } {llvm.loop_annotation
func.func @row_sums_of_squares_i32(%x: memref<4x32xi32>) -> memref<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %acc = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x32xi32>
      %sq = arith.muli %v, %v : i32
      %a = memref.load %acc[%i] : memref<4xi32>
      %s = arith.addi %sq, %a : i32
      memref.store %s, %acc[%i] : memref<4xi32>
    }
  }
  return %acc : memref<4xi32>
}

// -----

// Not taken: a float sum without `reassoc` (LLVM could not vectorize it along the row; across
// rows it can), fewer than 16 iterations, a read across the tile's contiguous dimension, an
// accumulator that is a kernel's memory, and a loop that also reads the accumulator's buffer.
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT: iter_args
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
func.func @not_taken(%x: memref<64x64xf32>, %out: memref<64xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %acc = memref.alloca() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x64xf32>
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x64xf32>
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %x[%j, %i] : memref<64x64xf32>
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x64xf32>
      %a = memref.load %out[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %out[%i] : memref<64xf32>
    }
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %acc[%j] : memref<64xf32>
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
  }
  return %acc : memref<64xf32>
}

// -----

// Row sums read straight from the kernel's memory (the tile's load fused into the reduction):
// the address advances by one element a column (`base + row * 64 + column`), so the loop is
// kept rolled; a column walk (`base + column * 64 + row`) is not.
// CHECK-LABEL: func.func @row_sums_from_memory
// CHECK: scf.for
// CHECK:   scf.for {{.+}} iter_args
// CHECK:     llvm.load
// CHECK:   } {llvm.loop_annotation
// CHECK:   scf.for
// CHECK-NOT: iter_args
// CHECK:     llvm.load
// CHECK:     memref.load
// CHECK: return
func.func @row_sums_from_memory(%x: !llvm.ptr) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c64_i32 = arith.constant 64 : i32
  %acc = memref.alloca() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %row = arith.muli %ii, %c64_i32 : i32
    %rowptr = llvm.getelementptr %x[%row] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    scf.for %j = %c0 to %c64 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %p = llvm.getelementptr %rowptr[%jj] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
    scf.for %j = %c0 to %c64 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %col = arith.muli %jj, %c64_i32 : i32
      %colptr = llvm.getelementptr %x[%col] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %p = llvm.getelementptr %colptr[%ii] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %a = memref.load %acc[%i] : memref<64xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%i] : memref<64xf32>
    }
  }
  return %acc : memref<64xf32>
}
