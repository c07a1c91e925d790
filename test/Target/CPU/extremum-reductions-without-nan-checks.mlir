// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-extremum-reductions-without-nan-checks))" | FileCheck %s

// A row max into a local accumulator: first a loop from -inf with nnan/nsz that carries the
// largest magnitude's bits, then the original loop only if those bits say NaN (above +inf's
// 0x7F800000), else the fast result folded into the accumulator with the original maxnumf.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[FAST:.+]]:2 = scf.for %[[I:.+]] = {{.+}} iter_args(%[[MAX:.+]] = %[[NEG_INF]], %[[BITS:.+]] = %[[ZERO]]) -> (f32, i32)
// CHECK:   %[[X:.+]] = memref.load %{{.+}}[%[[I]]] : memref<1024xf32>
// CHECK:   %[[NEW_MAX:.+]] = arith.maxnumf %[[MAX]], %[[X]] fastmath<nnan,nsz> : f32
// CHECK:   %[[X_BITS:.+]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:   %[[MAGNITUDE:.+]] = arith.andi %[[X_BITS]], %{{.+}} : i32
// CHECK:   %[[NEW_BITS:.+]] = arith.maxui %[[BITS]], %[[MAGNITUDE]] : i32
// CHECK:   scf.yield %[[NEW_MAX]], %[[NEW_BITS]] : f32, i32
// CHECK: %[[INF_BITS:.+]] = arith.constant 2139095040 : i32
// CHECK: %[[SAW_NAN:.+]] = arith.cmpi ugt, %[[FAST]]#1, %[[INF_BITS]] : i32
// CHECK: scf.if %[[SAW_NAN]] {
// CHECK:   scf.for
// CHECK:     memref.load %[[ACC:.+]][]
// CHECK:     arith.maxnumf
// CHECK-NOT: fastmath
// CHECK:     memref.store
// CHECK: } else {
// CHECK:   scf.if
// CHECK:     %[[OLD:.+]] = memref.load %[[ACC]][] : memref<f32>
// CHECK:     %[[RESULT:.+]] = arith.maxnumf %[[OLD]], %[[FAST]]#0 : f32
// CHECK:     memref.store %[[RESULT]], %[[ACC]][] : memref<f32>
func.func @row_max(%x: memref<1024xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %nan = arith.constant 0x7FC00000 : f32
  %acc = memref.alloca() : memref<f32>
  memref.store %nan, %acc[] : memref<f32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %x[%i] : memref<1024xf32>
    %a = memref.load %acc[] : memref<f32>
    %m = arith.maxnumf %a, %v : f32
    memref.store %m, %acc[] : memref<f32>
  }
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}

// -----

// The inner loop of a 2-D tile's row minima (NaN wins: minimumf); the accumulator's index is
// the outer loop's. Starts from +inf with minnumf; the NaN-propagating op stays for the fold.
// CHECK-LABEL: func.func @row_minima_of_a_tile
// CHECK: scf.for %[[ROW:.+]] =
// CHECK:   %[[POS_INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK:   %[[FAST:.+]]:2 = scf.for {{.+}} iter_args(%{{.+}} = %[[POS_INF]], %{{.+}} = %{{.+}}) -> (f32, i32)
// CHECK:     arith.minnumf {{.+}} fastmath<nnan,nsz> : f32
// CHECK:   scf.if
// CHECK:     arith.minimumf
// CHECK:   } else {
// CHECK:     %[[OLD:.+]] = memref.load %{{.+}}[%[[ROW]]] : memref<8xf32>
// CHECK:     arith.minimumf %[[FAST]]#0, %[[OLD]] : f32
func.func @row_minima_of_a_tile(%x: memref<8x256xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %acc = memref.alloc() : memref<8xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c256 step %c1 {
      %v = memref.load %x[%r, %c] : memref<8x256xf32>
      %a = memref.load %acc[%r] : memref<8xf32>
      %m = arith.minimumf %v, %a : f32
      memref.store %m, %acc[%r] : memref<8xf32>
    }
  }
  return %acc : memref<8xf32>
}

// -----

// f64: no 64-bit integer max on AVX2, so the fast loop ORs unordered self-compares instead.
// CHECK-LABEL: func.func @row_max_f64
// CHECK: scf.for {{.+}} -> (f64, i1)
// CHECK:   arith.maxnumf {{.+}} fastmath<nnan,nsz> : f64
// CHECK:   %[[UNORDERED:.+]] = arith.cmpf uno
// CHECK:   arith.ori %{{.+}}, %[[UNORDERED]] : i1
func.func @row_max_f64(%x: memref<64xf64>, %acc: memref<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %local = memref.alloca() : memref<f64>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf64>
    %a = memref.load %local[] : memref<f64>
    %m = arith.maxnumf %a, %v : f64
    memref.store %m, %local[] : memref<f64>
  }
  memref.copy %local, %acc : memref<f64> to memref<f64>
  return
}

// -----

// Left alone: an accumulator that is a kernel's argument (it may be what the loop reads), a
// loop that also stores elsewhere, and one that reads the accumulator's buffer again.
// CHECK-LABEL: func.func @not_reductions
// CHECK-NOT: fastmath
// CHECK: return
func.func @not_reductions(%x: memref<64xf32>, %out: memref<f32>, %other: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %a = memref.load %out[] : memref<f32>
    %m = arith.maxnumf %a, %v : f32
    memref.store %m, %out[] : memref<f32>
  }
  %local = memref.alloca() : memref<f32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %a = memref.load %local[] : memref<f32>
    %m = arith.maxnumf %a, %v : f32
    memref.store %m, %local[] : memref<f32>
    memref.store %v, %other[%i] : memref<64xf32>
  }
  %tile = memref.alloca() : memref<65xf32>
  %last = memref.subview %tile[64] [1] [1] : memref<65xf32> to memref<f32, strided<[], offset: 64>>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %tile[%i] : memref<65xf32>
    %a = memref.load %last[] : memref<f32, strided<[], offset: 64>>
    %m = arith.maxnumf %a, %v : f32
    memref.store %m, %last[] : memref<f32, strided<[], offset: 64>>
  }
  return
}
