// RUN: tritium-opt %s --pass-pipeline="builtin.module(func.func(tritium-cpu-divide-by-invariants-as-multiplies))" | FileCheck %s

// Indices divided by a size known only at run time (Inductor's `xindex // ks1`, `% ks0`): the
// multiplier is computed once before the loop (a 64-bit division, by one where the divisor is
// zero) and the loop multiplies and shifts. A signed quotient takes the sign of n xor d.
// CHECK-LABEL: func.func @signed_by_argument
// CHECK:     %[[SAFE:.+]] = arith.select %{{.+}}, %{{.+}}, %arg1 : i32
// CHECK:     math.ctlz
// CHECK:     arith.divui %{{.+}} : i64
// CHECK:     scf.for
// CHECK-NOT:   arith.divsi
// CHECK-NOT:   arith.remsi
// CHECK:       arith.muli %{{.+}} : i64
// CHECK:       arith.shrui
// CHECK:       arith.muli %{{.+}}, %[[SAFE]] : i32
// CHECK:     return
func.func @signed_by_argument(%out: memref<1024xi32>, %d: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.for %i = %c0 to %c1024 step %c1 {
    %x = arith.index_cast %i : index to i32
    %q = arith.divsi %x, %d : i32
    %r = arith.remsi %q, %d : i32
    memref.store %r, %out[%i] : memref<1024xi32>
  }
  return
}

// Left alone: constant divisors (LLVM multiplies already), divisors computed in the loop,
// 64-bit divisions, and divisions outside loops.
// CHECK-LABEL: func.func @left_alone
// CHECK: arith.divui %{{.+}}, %arg2 : i32
// CHECK: scf.for
// CHECK:   arith.divsi %{{.+}}, %c7_i32 : i32
// CHECK:   arith.divsi %{{.+}}, %{{.+}} : i32
// CHECK:   arith.divsi %{{.+}}, %arg3 : i64
func.func @left_alone(%out: memref<1024xi32>, %wide: memref<1024xi64>, %d: i32, %d64: i64) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %c7 = arith.constant 7 : i32
  %c100 = arith.constant 100 : i32
  %outside = arith.divui %c100, %d : i32
  scf.for %i = %c0 to %c1024 step %c1 {
    %x = arith.index_cast %i : index to i32
    %q = arith.divsi %x, %c7 : i32
    %varying = arith.addi %x, %d : i32
    %p = arith.divsi %q, %varying : i32
    memref.store %p, %out[%i] : memref<1024xi32>
    %x64 = arith.index_cast %i : index to i64
    %w = arith.divsi %x64, %d64 : i64
    memref.store %w, %wide[%i] : memref<1024xi64>
  }
  return %outside : i32
}
