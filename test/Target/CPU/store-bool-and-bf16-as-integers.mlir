// RUN: tritium-opt %s --tritium-cpu-store-bool-and-bf16-as-integers | FileCheck %s

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

// bf16 buffers hold the bits: loads and stores reinterpret them.
// CHECK-LABEL: func.func @bf16_buffer
// CHECK: %[[M:.+]] = memref.alloca() : memref<8xi16>
// CHECK: %[[W:.+]] = arith.bitcast %{{.+}} : bf16 to i16
// CHECK: memref.store %[[W]], %[[M]][%{{.+}}] : memref<8xi16>
// CHECK: %[[B:.+]] = memref.load %[[M]][%{{.+}}] : memref<8xi16>
// CHECK: arith.bitcast %[[B]] : i16 to bf16
func.func @bf16_buffer(%v: bf16, %i: index) -> bf16 {
  %m = memref.alloca() : memref<8xbf16>
  memref.store %v, %m[%i] : memref<8xbf16>
  %r = memref.load %m[%i] : memref<8xbf16>
  return %r : bf16
}

// A constant bf16 tile is a global of its bits.
// CHECK: memref.global "private" constant @halves : memref<2xi16> = dense<[16128, -16640]>
// CHECK-LABEL: func.func @constant_bf16
// CHECK: memref.get_global @halves : memref<2xi16>
memref.global "private" constant @halves : memref<2xbf16> = dense<[0.5, -0.5]>
func.func @constant_bf16(%i: index) -> bf16 {
  %m = memref.get_global @halves : memref<2xbf16>
  %r = memref.load %m[%i] : memref<2xbf16>
  return %r : bf16
}
