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

// A constant bool tile is a global of bytes 0 and 1.
// CHECK: memref.global "private" constant @mask : memref<4xi8> = dense<[1, 0, 0, 1]>
// CHECK-LABEL: func.func @constant_bools
// CHECK: memref.get_global @mask : memref<4xi8>
memref.global "private" constant @mask : memref<4xi1> = dense<[true, false, false, true]>
func.func @constant_bools(%i: index) -> i1 {
  %m = memref.get_global @mask : memref<4xi1>
  %r = memref.load %m[%i] : memref<4xi1>
  return %r : i1
}
