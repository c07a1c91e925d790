// RUN: tritium-opt %s -split-input-file --tritium-cpu-promote-tile-buffers-to-stack | FileCheck %s
// RUN: tritium-opt %s -split-input-file --tritium-cpu-promote-tile-buffers-to-stack="max-function-bytes=4096" | FileCheck %s --check-prefix=BUDGET

// A program's tile buffer, allocated once per call: on the stack.
// CHECK-LABEL: func.func @tile_buffer
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK-NOT: memref.alloc()
func.func @tile_buffer(%v: f32, %i: index) -> f32 {
  %m = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  memref.store %v, %m[%i] : memref<1024xf32>
  %r = memref.load %m[%i] : memref<1024xf32>
  return %r : f32
}

// -----

// Beyond the per-buffer limit (64 KiB by default), of a dynamic size, returned, or carried
// from one iteration of a loop to the next: the heap.
// CHECK-LABEL: func.func @stays_on_heap
// CHECK: memref.alloc() : memref<32768xf32>
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: scf.for
// CHECK:   memref.alloc() : memref<16xf32>
// CHECK:   scf.yield
// CHECK: memref.alloc() : memref<8xf32>
// CHECK-NOT: memref.alloca
func.func @stays_on_heap(%n: index, %v: f32) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = memref.alloc() : memref<32768xf32>
  memref.store %v, %big[%c0] : memref<32768xf32>
  %dyn = memref.alloc(%n) : memref<?xf32>
  memref.store %v, %dyn[%c0] : memref<?xf32>
  %first = memref.alloc() : memref<16xf32>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %first) -> (memref<16xf32>) {
    %inner = memref.alloc() : memref<16xf32>
    memref.store %v, %inner[%c0] : memref<16xf32>
    scf.yield %inner : memref<16xf32>
  }
  %out = memref.alloc() : memref<8xf32>
  return %out : memref<8xf32>
}

// -----

// A buffer that dies with its iteration (the tiles of one row in a loop over rows, here in a
// branch of the loop): one stack slot at the top of the function, reused by every iteration.
// CHECK-LABEL: func.func @iteration_local
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK-NOT: memref.alloc()
func.func @iteration_local(%n: index, %v: f32, %on: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %next = scf.if %on -> (f32) {
      %row = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
      %view = memref.subview %row[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
      memref.store %v, %view[%i] : memref<512xf32, strided<[1]>>
      %x = memref.load %row[%i] : memref<1024xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %next : f32
  }
  return %sum : f32
}

// -----

// The function's budget: buffers are promoted in order until it is spent.
// CHECK-LABEL: func.func @budget
// CHECK-COUNT-3: memref.alloca() : memref<512xf32>
// BUDGET-LABEL: func.func @budget
// BUDGET: memref.alloca() : memref<512xf32>
// BUDGET: memref.alloca() : memref<512xf32>
// BUDGET: memref.alloc() : memref<512xf32>
func.func @budget(%v: f32, %i: index) {
  %a = memref.alloc() : memref<512xf32>
  %b = memref.alloc() : memref<512xf32>
  %c = memref.alloc() : memref<512xf32>
  memref.store %v, %a[%i] : memref<512xf32>
  memref.store %v, %b[%i] : memref<512xf32>
  memref.store %v, %c[%i] : memref<512xf32>
  return
}

// -----

// A mask tile (Inductor's `tl.all` flags): a byte an element on the stack too.
// CHECK-LABEL: func.func @mask_tile
// CHECK: memref.alloca() : memref<4096xi1>
// CHECK-NOT: memref.alloc()
func.func @mask_tile(%v: i1, %i: index) -> i1 {
  %m = memref.alloc() : memref<4096xi1>
  memref.store %v, %m[%i] : memref<4096xi1>
  %r = memref.load %m[%i] : memref<4096xi1>
  return %r : i1
}
