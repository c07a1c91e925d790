// RUN: tritium-opt %s --tritium-cpu-copies-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @strided_copy
// CHECK: linalg.copy ins(%{{.+}} : memref<4x4xf32, strided<[8, 1]>>) outs(%{{.+}} : memref<4x4xf32>)
// CHECK-NOT: memref.copy
func.func @strided_copy(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}
