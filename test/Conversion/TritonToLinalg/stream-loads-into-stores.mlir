// RUN: tritium-opt %s -split-input-file --stream-loads-into-stores | FileCheck %s
// RUN: tritium-opt %s -split-input-file --stream-loads-into-stores --convert-triton-to-linalg --canonicalize | FileCheck %s --check-prefix=LINALG

// A vector add: both loads feed only the store, so both are read inside its loop and no tile
// buffer remains.
// out = tl.load(x + offs, mask) + tl.load(y + offs, mask); tl.store(out + offs, ..., mask)
// CHECK-LABEL: tt.func @vector_add
// CHECK: tt.load %{{.+}}, %{{.+}} {tritium.read_at_use} : tensor<16x!tt.ptr<f32>>
// CHECK: tt.load %{{.+}}, %{{.+}} {tritium.read_at_use} : tensor<16x!tt.ptr<f32>>
// LINALG-LABEL: func.func @vector_add
// LINALG-NOT: memref.alloc
// LINALG: scf.for
// LINALG:   %[[MASK:.+]] = arith.cmpi slt
// LINALG:   %[[X:.+]] = scf.if %[[MASK]] -> (f32) {
// LINALG:     llvm.load
// LINALG:   %[[Y:.+]] = scf.if %[[MASK]] -> (f32) {
// LINALG:     llvm.load
// LINALG:   %[[SUM:.+]] = arith.addf %[[X]], %[[Y]] : f32
// LINALG:   scf.if %[[MASK]] {
// LINALG:     llvm.store %[[SUM]]
// LINALG-NOT: memref.alloc
tt.func @vector_add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %offs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<16xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %a = tt.load %xp, %mask : tensor<16x!tt.ptr<f32>>
  %b = tt.load %yp, %mask : tensor<16x!tt.ptr<f32>>
  %s = arith.addf %a, %b : tensor<16xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %op, %s, %mask : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A gather: the index load feeds the address of a streamed load, so it streams too.
// CHECK-LABEL: tt.func @gather
// CHECK: tt.load %{{.+}} {tritium.read_at_use} : tensor<8x!tt.ptr<i32>>
// CHECK: tt.load %{{.+}} {tritium.read_at_use} : tensor<8x!tt.ptr<f32>>
// LINALG-LABEL: func.func @gather
// LINALG-NOT: memref.alloc
// LINALG: llvm.load %{{.+}} {{.*}}alignment = 4 : i64} : !llvm.ptr -> i32
// LINALG: llvm.load %{{.+}} {{.*}}alignment = 4 : i64} : !llvm.ptr -> f32
// LINALG: llvm.store
tt.func @gather(%idx: !tt.ptr<i32>, %table: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %ip = tt.addptr %is, %offs : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %i = tt.load %ip : tensor<8x!tt.ptr<i32>>
  %ts = tt.splat %table : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %tp = tt.addptr %ts, %i : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %tp : tensor<8x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A max folds element by element: it reads the row where it is loaded, and so does the store
// of x - max (the row is read twice, never copied).
// CHECK-LABEL: tt.func @feeds_a_reduction
// CHECK: tt.load %{{.+}} {tritium.read_at_use} : tensor<8x!tt.ptr<f32>>
// CHECK: "tt.reduce"
// CHECK: }) {tritium.read_at_use} : (tensor<8xf32>) -> f32
// LINALG-LABEL: func.func @feeds_a_reduction
// LINALG-NOT: linalg.reduce
// LINALG: %[[MAX:.+]] = memref.alloc() : memref<f32>
// LINALG: linalg.fill ins(%{{.+}} : f32) outs(%[[MAX]] : memref<f32>)
// LINALG: scf.for
// LINALG:   llvm.load
// LINALG:   arith.maxnumf
// LINALG:   memref.store %{{.+}}, %[[MAX]][]
// LINALG: scf.for
// LINALG:   llvm.load
// LINALG:   arith.subf
// LINALG:   llvm.store
tt.func @feeds_a_reduction(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tt.reduce.return %c : f32
  }) : (tensor<8xf32>) -> f32
  %ms = tt.splat %m : f32 -> tensor<8xf32>
  %d = arith.subf %v, %ms : tensor<8xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %d : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// Softmax's exp feeds both a sum and the store: computed once into a tile, so the load that
// feeds it keeps its buffer (and neither reduction streams).
// CHECK-LABEL: tt.func @costly_value_used_twice
// CHECK: tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
// CHECK-NOT: tritium.read_at_use
tt.func @costly_value_used_twice(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %e = math.exp %v : tensor<8xf32>
  %s = "tt.reduce"(%e) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tt.reduce.return %c : f32
  }) : (tensor<8xf32>) -> f32
  %ss = tt.splat %s : f32 -> tensor<8xf32>
  %d = arith.divf %e, %ss : tensor<8xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %d : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// An argmax (two operands) has no element-by-element fold: the load keeps its buffer.
// CHECK-LABEL: tt.func @feeds_an_argmax
// CHECK: tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
// CHECK-NOT: tritium.read_at_use
tt.func @feeds_an_argmax(%x: !tt.ptr<f32>, %out: !tt.ptr<i32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %m:2 = "tt.reduce"(%v, %offs) <{axis = 0 : i32}> ({
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %av, %bv : f32
    %vv = arith.select %gt, %av, %bv : f32
    %ii = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %vv, %ii : f32, i32
  }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
  tt.store %out, %m#1 : !tt.ptr<i32>
  tt.return
}

// -----

// A store between the load and its use may overwrite what the load read: not streamed. (The
// store of another shape cannot share the use's loop.)
// CHECK-LABEL: tt.func @write_in_between
// CHECK: tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
// CHECK-NOT: tritium.read_at_use
// CHECK-NOT: tritium.store_group
tt.func @write_in_between(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<4xf32>
  %offs4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %xs4 = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %xp4 = tt.addptr %xs4, %offs4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  tt.store %xp4, %zero : tensor<4x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// Two stores of one shape are written in one loop (the first moves down to the second past
// the pure ops between them); each iteration loads x[i], then stores x[i] and out[i], so the
// load streams although the first store overwrites what it read.
// CHECK-LABEL: tt.func @stores_in_one_loop
// CHECK: tt.load %{{[0-9]+}} {tritium.read_at_use} : tensor<8x!tt.ptr<f32>>
// CHECK: tt.store %{{[0-9]+}}, %{{.+}} {tritium.store_group = 2 : i32}
// CHECK-NEXT: tt.store
// The loop tells LLVM that its iterations are independent: every access in one group, which
// the loop's annotation lists as parallel.
// LINALG: #[[GROUP0:.+]] = #llvm.access_group<id = distinct
// LINALG: #loop_annotation{{[0-9]*}} = #llvm.loop_annotation<parallelAccesses = #[[GROUP0]]>
// LINALG-LABEL: func.func @stores_in_one_loop
// LINALG-NOT: memref.alloc
// LINALG: scf.for
// LINALG:   %[[X:.+]] = llvm.load
// LINALG:   %[[TWICE:.+]] = arith.addf %[[X]], %[[X]] : f32
// LINALG:   llvm.store %{{.+}}, %[[XP:.+]] {
// LINALG:   llvm.store %[[TWICE]], %{{.+}} {access_groups = [#[[GROUP:.+]]],
// LINALG: } {llvm.loop_annotation = #[[LOOP:.+]]}
// LINALG-NOT: scf.for
// LINALG: return
tt.func @stores_in_one_loop(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<8xf32>
  tt.store %xp, %zero : tensor<8x!tt.ptr<f32>>
  %twice = arith.addf %v, %v : tensor<8xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %twice : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// Stores into one buffer through different pointer tiles may overlap across elements: each
// keeps its own loop, and the load (whose buffer one of them writes) its tile.
// CHECK-LABEL: tt.func @stores_overlapping_in_one_buffer
// CHECK: tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
// CHECK-NOT: tritium.read_at_use
// CHECK-NOT: tritium.store_group
tt.func @stores_overlapping_in_one_buffer(%x: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %one = arith.constant dense<1> : tensor<8xi32>
  %shifted = tt.addptr %xp, %one : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %xp, %v : tensor<8x!tt.ptr<f32>>
  tt.store %shifted, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// silu's backward as Inductor writes it: a costly value (the sigmoid's division) that two ops
// use, all on the way to one store, is computed once per element in that store's loop; the
// loads stream into the loop of both stores.
// CHECK-LABEL: tt.func @costly_value_used_twice_by_one_store
// CHECK: tt.load %{{[0-9]+}} {tritium.read_at_use}
// CHECK: tt.load %{{[0-9]+}} {tritium.read_at_use}
// LINALG-LABEL: func.func @costly_value_used_twice_by_one_store
// LINALG-NOT: memref.alloc
// LINALG: scf.for
// LINALG-COUNT-1: arith.divf
// LINALG-NOT: arith.divf
// LINALG: llvm.store
// LINALG: llvm.store
// LINALG-NOT: scf.for
// LINALG: return
tt.func @costly_value_used_twice_by_one_store(%x: !tt.ptr<f32>, %g: !tt.ptr<f32>, %a: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %one = arith.constant dense<1.000000e+00> : tensor<8xf32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %gs = tt.splat %g : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %gp = tt.addptr %gs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %grad = tt.load %gp : tensor<8x!tt.ptr<f32>>
  %neg = arith.negf %v : tensor<8xf32>
  %e = math.exp %neg : tensor<8xf32>
  %d = arith.addf %e, %one : tensor<8xf32>
  %sig = arith.divf %one, %d : tensor<8xf32>
  %gs1 = arith.mulf %grad, %sig : tensor<8xf32>
  %oms = arith.subf %one, %sig : tensor<8xf32>
  %t = arith.mulf %v, %oms : tensor<8xf32>
  %t1 = arith.addf %t, %one : tensor<8xf32>
  %dx = arith.mulf %gs1, %t1 : tensor<8xf32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %ap = tt.addptr %as, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %ap, %neg : tensor<8x!tt.ptr<f32>>
  tt.store %gp, %dx : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// In place through the same pointer tile: element i is read before it is written. Streamed.
// CHECK-LABEL: tt.func @in_place
// CHECK: tt.load %{{.+}} {tritium.read_at_use} : tensor<8x!tt.ptr<f32>>
tt.func @in_place(%x: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %d = arith.addf %v, %v : tensor<8xf32>
  tt.store %xp, %d : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// Shifting within one buffer: x[i + 1] = x[i] needs every x[i] read before any is written.
// CHECK-LABEL: tt.func @shift_within_buffer
// CHECK: tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
// CHECK-NOT: tritium.read_at_use
tt.func @shift_within_buffer(%x: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %one = arith.constant dense<1> : tensor<8xi32>
  %shifted = tt.addptr %xp, %one : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %shifted, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A volatile load is performed where it is written.
// CHECK-LABEL: tt.func @volatile_load
// CHECK-NOT: tritium.read_at_use
tt.func @volatile_load(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A loop accumulating loaded tiles into a loop-carried tile, as Inductor writes a reduction
// that loops (`acc = tl.where(mask, acc + x, acc)`): the select that makes the next tile
// computes it element by element over the loop-carried tile, in place, loading each element of
// x where it is added; no buffer is allocated for the loaded tile or the new one.
// CHECK-LABEL: tt.func @accumulate_in_loop
// CHECK: tt.load %{{.+}}, %{{.+}} {tritium.read_at_use} : tensor<4x8x!tt.ptr<f32>>
// CHECK: arith.select %{{.+}} {tritium.computed_per_element} : tensor<4x8xi1>, tensor<4x8xf32>
// CHECK: scf.yield
// LINALG-LABEL: func.func @accumulate_in_loop
// LINALG-NOT: memref.alloc
// LINALG: scf.for %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<4x8xf32>)
// LINALG:   scf.for %{{.+}} iter_args(%[[ROWS:.+]] = %[[ACC]]) -> (tensor<4x8xf32>)
// LINALG:     scf.for %{{.+}} iter_args(%[[TILE:.+]] = %[[ROWS]]) -> (tensor<4x8xf32>)
// LINALG:       %[[OLD:.+]] = tensor.extract %[[TILE]]
// LINALG:       %[[X:.+]] = scf.if %{{.+}} -> (f32) {
// LINALG:         llvm.load
// LINALG:       %[[SUM:.+]] = arith.addf %[[OLD]], %[[X]] : f32
// LINALG:       %[[KEPT:.+]] = arith.select %{{.+}}, %[[SUM]], %[[OLD]] : f32
// LINALG:       tensor.insert %[[KEPT]] into %[[TILE]]
// LINALG-NOT: memref.alloc
// LINALG: linalg.reduce
tt.func @accumulate_in_loop(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %rows: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.0> : tensor<4x8xf32>
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cols = tt.broadcast %c2 : tensor<1x8xi32> -> tensor<4x8xi32>
  %eight = arith.constant dense<8> : tensor<4x1xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %acc = scf.for %i = %c0 to %rows step %c4 iter_args(%a = %zero) -> (tensor<4x8xf32>) : i32 {
    %is = tt.splat %i : i32 -> tensor<4x1xi32>
    %row = arith.addi %is, %r2 : tensor<4x1xi32>
    %bound = tt.splat %rows : i32 -> tensor<4x1xi32>
    %inrow = arith.cmpi slt, %row, %bound : tensor<4x1xi32>
    %mask = tt.broadcast %inrow : tensor<4x1xi1> -> tensor<4x8xi1>
    %rowoff = arith.muli %row, %eight : tensor<4x1xi32>
    %rowoffs = tt.broadcast %rowoff : tensor<4x1xi32> -> tensor<4x8xi32>
    %offs = arith.addi %rowoffs, %cols : tensor<4x8xi32>
    %p = tt.addptr %xs, %offs : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
    %v = tt.load %p, %mask : tensor<4x8x!tt.ptr<f32>>
    %sum = arith.addf %a, %v : tensor<4x8xf32>
    %next = arith.select %mask, %sum, %a : tensor<4x8xi1>, tensor<4x8xf32>
    scf.yield %next : tensor<4x8xf32>
  }
  %total = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<8xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %c : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %total : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A loop that carries a loaded tile as it is (software pipelining: this iteration's load is
// the next iteration's input) needs the tile itself: the load keeps its buffer.
// CHECK-LABEL: tt.func @carry_loaded_tile
// CHECK-NOT: tritium.read_at_use
// CHECK-NOT: tritium.computed_per_element
tt.func @carry_loaded_tile(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %zero) -> (tensor<8xf32>) : i32 {
    %is = tt.splat %i : i32 -> tensor<8xi32>
    %offs = arith.addi %is, %c : tensor<8xi32>
    %p = tt.addptr %xs, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %p : tensor<8x!tt.ptr<f32>>
    scf.yield %v : tensor<8xf32>
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %op = tt.addptr %os, %c : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %op, %last : tensor<8x!tt.ptr<f32>>
  tt.return
}
