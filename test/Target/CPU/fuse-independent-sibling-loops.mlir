// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-fuse-independent-sibling-loops))" | FileCheck %s

// A row's sum and max (each carried in iteration arguments) read the row in one loop.
// CHECK-LABEL: func.func @row_reductions_read_once
// CHECK: %[[BOTH:.+]]:2 = scf.for %[[I:.+]] = {{.+}} iter_args(%[[S:.+]] = %{{.+}}, %[[M:.+]] = %{{.+}}) -> (f32, f32)
// CHECK:   memref.load %{{.+}}[%[[I]]]
// CHECK:   arith.addf %[[S]]
// CHECK:   memref.load %{{.+}}[%[[I]]]
// CHECK:   arith.maxnumf %[[M]]
// CHECK:   scf.yield
// CHECK-NOT: scf.for
// CHECK: return %[[BOTH]]#0, %[[BOTH]]#1
func.func @row_reductions_read_once(%x: memref<1024xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<1024xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  %ninf = arith.constant 0xFF800000 : f32
  %max = scf.for %i = %c0 to %c1024 step %c1 iter_args(%m = %ninf) -> (f32) {
    %v = memref.load %x[%i] : memref<1024xf32>
    %n = arith.maxnumf %m, %v : f32
    scf.yield %n : f32
  }
  return %sum, %max : f32, f32
}

// -----

// The second loop's accumulator is initialised between the loops: the initialisation and the
// load of it move before the fused loop, in their order; what reads the first loop's result
// stays after it.
// CHECK-LABEL: func.func @accumulator_initialised_between
// CHECK: %[[A:.+]] = memref.alloca() : memref<1xf32>
// CHECK: %[[B:.+]] = memref.alloca() : memref<1xf32>
// CHECK: memref.store %{{.+}}, %[[B]]
// CHECK: %[[INIT:.+]] = memref.load %[[B]]
// CHECK: %[[BOTH:.+]]:2 = scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[INIT]])
// CHECK: memref.store %[[BOTH]]#0, %[[A]]
// CHECK-NOT: scf.for
// CHECK: memref.store %[[BOTH]]#1, %[[B]]
func.func @accumulator_initialised_between(%x: !llvm.ptr, %y: !llvm.ptr) -> (memref<1xf32>, memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloca() : memref<1xf32>
  %first = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
    %j = arith.index_cast %i : index to i64
    %p = llvm.getelementptr %x[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  memref.store %first, %a[%c0] : memref<1xf32>
  %b = memref.alloca() : memref<1xf32>
  memref.store %zero, %b[%c0] : memref<1xf32>
  %init = memref.load %b[%c0] : memref<1xf32>
  %second = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %init) -> (f32) {
    %j = arith.index_cast %i : index to i64
    %p = llvm.getelementptr %y[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  memref.store %second, %b[%c0] : memref<1xf32>
  return %a, %b : memref<1xf32>, memref<1xf32>
}

// -----

// A tile written at [0, i] and read at [0, i] by the next loop (which stores to the kernel's
// output) is handed on within the iteration; the loops' annotations merge. The first loop
// reads a local tile only: were it reading a kernel argument, the store (to another argument,
// which might alias it) would keep the loops apart.
// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[BOTH:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]], parallelAccesses = #{{.+}}>
// CHECK-LABEL: func.func @tile_handed_on
// CHECK: scf.for %[[I:.+]] =
// CHECK:   math.exp
// CHECK:   memref.store %{{.+}}, %[[T:.+]][%{{.+}}, %[[I]]]
// CHECK:   memref.load %[[T]][%{{.+}}, %[[I]]]
// CHECK:   llvm.store
// CHECK: } {llvm.loop_annotation = #[[BOTH]]}
// CHECK-NOT: scf.for
func.func @tile_handed_on(%out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %one = arith.constant 1.0 : f32
  %x = memref.alloca() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1024xf32>)
  %tile = memref.alloca() : memref<1x1024xf32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %x[%i] : memref<1024xf32>
    %e = math.exp %v : f32
    memref.store %e, %tile[%c0, %i] : memref<1x1024xf32>
  } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
  scf.for %i = %c0 to %c1024 step %c1 {
    %e = memref.load %tile[%c0, %i] : memref<1x1024xf32>
    %j = arith.index_cast %i : index to i64
    %p = llvm.getelementptr %out[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %e, %p {access_groups = [#llvm.access_group<id = distinct[0]<>>]} : f32, !llvm.ptr
  } {llvm.loop_annotation = #llvm.loop_annotation<parallelAccesses = <id = distinct[0]<>>>}
  return
}

// -----

// The same loops reading a kernel argument: the store to another argument (which may alias
// it) keeps them apart.
// CHECK-LABEL: func.func @argument_read_before_a_store
// CHECK: scf.for
// CHECK: scf.for
func.func @argument_read_before_a_store(%x: memref<1024xf32>, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %tile = memref.alloca() : memref<1x1024xf32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %x[%i] : memref<1024xf32>
    %e = math.exp %v : f32
    memref.store %e, %tile[%c0, %i] : memref<1x1024xf32>
  }
  scf.for %i = %c0 to %c1024 step %c1 {
    %e = memref.load %tile[%c0, %i] : memref<1x1024xf32>
    %j = arith.index_cast %i : index to i64
    %p = llvm.getelementptr %out[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %e, %p : f32, !llvm.ptr
  }
  return
}

// -----

// A 1x1024 nest (one iteration outside) is its row loop: inlined, then fused. (The kernel's
// memory is read through pointers; a memref argument would count as any buffer.)
// CHECK-LABEL: func.func @single_iteration_nests
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: return
func.func @single_iteration_nests(%x: !llvm.ptr, %u: memref<1x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.alloc() : memref<1x1024xf32>
  %b = memref.alloc() : memref<1x1024xf32>
  scf.for %r = %c0 to %c1 step %c1 {
    scf.for %i = %c0 to %c1024 step %c1 {
      %j = arith.index_cast %i : index to i64
      %p = llvm.getelementptr %x[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      memref.store %v, %a[%r, %i] : memref<1x1024xf32>
    }
  }
  scf.for %r = %c0 to %c1 step %c1 {
    scf.for %i = %c0 to %c1024 step %c1 {
      %v = memref.load %a[%r, %i] : memref<1x1024xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %b[%r, %i] : memref<1x1024xf32>
    }
  }
  memref.copy %b, %u : memref<1x1024xf32> to memref<1x1024xf32>
  return
}

// -----

// The second loop reads the tile one element ahead of what the first has written by then:
// not fused.
// CHECK-LABEL: func.func @reads_another_element
// CHECK: scf.for
// CHECK: scf.for
func.func @reads_another_element(%x: memref<1025xf32>, %y: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %tile = memref.alloca() : memref<1025xf32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %x[%i] : memref<1025xf32>
    memref.store %v, %tile[%i] : memref<1025xf32>
  }
  scf.for %i = %c0 to %c1024 step %c1 {
    %next = arith.addi %i, %c1 : index
    %v = memref.load %tile[%next] : memref<1025xf32>
    memref.store %v, %y[%i] : memref<1024xf32>
  }
  return
}

// -----

// A store to the kernel's memory between the loops: the second loop's reads may not pass it.
// CHECK-LABEL: func.func @store_between
// CHECK: scf.for
// CHECK: llvm.store
// CHECK: scf.for
func.func @store_between(%x: memref<1024xf32>, %p: !llvm.ptr) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<1024xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  llvm.store %sum, %p : f32, !llvm.ptr
  %again = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<1024xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  return %sum, %again : f32, f32
}

// -----

// The second loop starts from the first one's result: not fused.
// CHECK-LABEL: func.func @chained
// CHECK: %[[FIRST:.+]] = scf.for
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[FIRST]])
func.func @chained(%x: memref<1024xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %first = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<1024xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  %second = scf.for %i = %c0 to %c1024 step %c1 iter_args(%s = %first) -> (f32) {
    %v = memref.load %x[%i] : memref<1024xf32>
    %n = arith.mulf %s, %v : f32
    scf.yield %n : f32
  }
  return %second : f32
}

// -----

// Both loops store to kernel arguments, which may alias: not fused.
// CHECK-LABEL: func.func @both_store_outside
// CHECK: scf.for
// CHECK: scf.for
func.func @both_store_outside(%x: memref<1024xf32>, %p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %x[%i] : memref<1024xf32>
    %j = arith.index_cast %i : index to i64
    %a = llvm.getelementptr %p[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %v, %a : f32, !llvm.ptr
  }
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %x[%i] : memref<1024xf32>
    %j = arith.index_cast %i : index to i64
    %b = llvm.getelementptr %q[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %v, %b : f32, !llvm.ptr
  }
  return
}

// -----

// Two nests over the rows of a tile: the row loops join (the second reads row r of the tile
// only in row r), then the column loops they hold side by side.
// CHECK-LABEL: func.func @row_nests_join
// CHECK: scf.for %[[R:.+]] =
// CHECK:   %[[SUM:.+]] = scf.for %[[C:.+]] = {{.+}} iter_args
// CHECK:     memref.store %{{.+}}, %[[T:.+]][%[[R]], %[[C]]]
// CHECK:     memref.load %[[T]][%[[R]], %[[C]]]
// CHECK:   memref.store %[[SUM]]
// CHECK-NOT: scf.for
// CHECK: return
func.func @row_nests_join(%x: !llvm.ptr, %sums: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloca() : memref<8x64xf32>
  %s = memref.alloca() : memref<8xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c64 step %c1 {
      %rc = affine.apply affine_map<(r, c) -> (r * 64 + c)>(%r, %c)
      %j = arith.index_cast %rc : index to i64
      %p = llvm.getelementptr %x[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %d = arith.addf %v, %v : f32
      memref.store %d, %t[%r, %c] : memref<8x64xf32>
    }
  }
  scf.for %r = %c0 to %c8 step %c1 {
    %sum = scf.for %c = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %t[%r, %c] : memref<8x64xf32>
      %n = arith.addf %acc, %v : f32
      scf.yield %n : f32
    }
    memref.store %sum, %s[%r] : memref<8xf32>
  }
  memref.copy %s, %sums : memref<8xf32> to memref<8xf32>
  return
}

// -----

// The second nest reads the tile transposed (row r of it holds column r of the tile, which
// every row of the first nest writes): not fused.
// CHECK-LABEL: func.func @transposed_read
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
func.func @transposed_read(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloca() : memref<8x8xf32>
  %u = memref.alloca() : memref<8x8xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c8 step %c1 {
      %v = memref.load %x[%r, %c] : memref<8x8xf32>
      memref.store %v, %t[%r, %c] : memref<8x8xf32>
    }
  }
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c8 step %c1 {
      %v = memref.load %t[%c, %r] : memref<8x8xf32>
      memref.store %v, %u[%r, %c] : memref<8x8xf32>
    }
  }
  memref.copy %u, %y : memref<8x8xf32> to memref<8x8xf32>
  return
}

// -----

// A matmul step reads its B tile through a `select` between two tiles (a conversion done or
// not): that memref may be the tile the first loop fills, so the loops stay apart.
// CHECK-LABEL: func.func @tile_chosen_by_select
// CHECK: scf.for
// CHECK: scf.for
func.func @tile_chosen_by_select(%x: !llvm.ptr, %c: i1, %y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloca() : memref<16xf32>
  %b = memref.alloca() : memref<16xf32>
  %chosen = arith.select %c, %a, %b : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %j = arith.index_cast %i : index to i64
    %p = llvm.getelementptr %x[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    memref.store %v, %b[%i] : memref<16xf32>
  }
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%s = %zero) -> (f32) {
    %last = arith.subi %c16, %i : index
    %k = arith.subi %last, %c1 : index
    %v = memref.load %chosen[%k] : memref<16xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  memref.store %sum, %y[%c0] : memref<16xf32>
  return
}
