// RUN: tritium-opt %s --tritium-cpu-expand-math-to-polynomials | FileCheck %s

// exp becomes arith (vectorizable); sin keeps its libm call.
// CHECK-LABEL: func.func @transcendental
// CHECK-NOT: math.exp
// CHECK: math.sin
func.func @transcendental(%x: f32) -> (f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.sin %x : f32
  return %0, %1 : f32, f32
}
