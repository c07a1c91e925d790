// RUN: tritium-opt %s --tritium-cpu-widen-bool-memrefs | FileCheck %s

// CHECK-LABEL: func.func @bools
// CHECK: %[[M:.+]] = memref.alloc() : memref<8xi8>
// CHECK: %[[W:.+]] = arith.extui %{{.+}} : i1 to i8
// CHECK: memref.store %[[W]], %[[M]][%{{.+}}] : memref<8xi8>
// CHECK: %[[B:.+]] = memref.load %[[M]][%{{.+}}] : memref<8xi8>
// CHECK: arith.trunci %[[B]] : i8 to i1
// CHECK: memref.dealloc %[[M]] : memref<8xi8>
func.func @bools(%v: i1, %i: index) -> i1 {
  %m = memref.alloc() : memref<8xi1>
  memref.store %v, %m[%i] : memref<8xi1>
  %r = memref.load %m[%i] : memref<8xi1>
  memref.dealloc %m : memref<8xi1>
  return %r : i1
}
