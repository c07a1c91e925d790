// RUN: tritium-opt %s -split-input-file --transpose-tiles-to-memory-order | FileCheck %s

// Column sums of a (R, 64) tensor as Inductor writes them: [64, 16] tiles addressed x + 64 * r,
// contiguous along their first dimension. Every 2-D tile becomes [16, 64] (the loop-carried
// accumulator too), the expand_dims and the reduction swap their axes, and the pointers,
// masks and values of each element stay what they were.
// CHECK-LABEL: tt.func @column_sums
// CHECK: arith.constant dense<0.000000e+00> : tensor<16x64xf32>
// CHECK: arith.constant dense<64> : tensor<16x1xi32>
// CHECK: tt.expand_dims %{{.+}} {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
// CHECK: tt.expand_dims %{{.+}} {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<16x64xf32>)
// CHECK:   arith.muli %{{.+}}, %{{.+}} : tensor<16x1xi32>
// CHECK:   tt.broadcast %{{.+}} : tensor<16x1xi32> -> tensor<16x64xi32>
// CHECK:   tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x64x!tt.ptr<f32>>
// CHECK:   scf.yield %{{.+}} : tensor<16x64xf32>
// CHECK: "tt.reduce"(%{{.+}}) <{axis = 0 : i32}>
// CHECK: (tensor<16x64xf32>) -> tensor<64xf32>
// CHECK: tt.expand_dims %{{.+}} {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
// CHECK: tt.store %{{.+}}, %{{.+}} : tensor<1x64x!tt.ptr<f32>>
tt.func @column_sums(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>, %rows: i32) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<64x16xf32>
  %stride = arith.constant dense<64> : tensor<1x16xi32>
  %xr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x = tt.expand_dims %xr {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.expand_dims %rr {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %base = tt.splat %src : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %acc = scf.for %ro = %c0 to %rows step %c16 iter_args(%a = %zero) -> (tensor<64x16xf32>) : i32 {
    %ros = tt.splat %ro : i32 -> tensor<1x16xi32>
    %ri = arith.addi %ros, %r : tensor<1x16xi32>
    %rs = tt.splat %rows : i32 -> tensor<1x16xi32>
    %rmask = arith.cmpi slt, %ri, %rs : tensor<1x16xi32>
    %rowoff = arith.muli %ri, %stride : tensor<1x16xi32>
    %rowb = tt.broadcast %rowoff : tensor<1x16xi32> -> tensor<64x16xi32>
    %xb = tt.broadcast %x : tensor<64x1xi32> -> tensor<64x16xi32>
    %off = arith.addi %xb, %rowb : tensor<64x16xi32>
    %p = tt.addptr %base, %off : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
    %m = tt.broadcast %rmask : tensor<1x16xi1> -> tensor<64x16xi1>
    %v = tt.load %p, %m, %zero : tensor<64x16x!tt.ptr<f32>>
    %next = arith.addf %a, %v : tensor<64x16xf32>
    scf.yield %next : tensor<64x16xf32>
  }
  %sum = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rgt: f32):
    %s = arith.addf %l, %rgt : f32
    tt.reduce.return %s : f32
  }) : (tensor<64x16xf32>) -> tensor<64xf32>
  %sum2 = tt.expand_dims %sum {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %ob = tt.splat %out : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
  %op = tt.addptr %ob, %x : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
  tt.store %op, %sum2 : tensor<64x1x!tt.ptr<f32>>
  tt.return
}

// -----

// Rows of a (64, N) tensor: contiguous along the second dimension already. Left as it is.
// CHECK-LABEL: tt.func @row_loads
// CHECK: tt.load %{{.+}} : tensor<64x16x!tt.ptr<f32>>
tt.func @row_loads(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %stride = arith.constant dense<16> : tensor<64x1xi32>
  %xr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x = tt.expand_dims %xr {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.expand_dims %rr {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %xo = arith.muli %x, %stride : tensor<64x1xi32>
  %xb = tt.broadcast %xo : tensor<64x1xi32> -> tensor<64x16xi32>
  %rb = tt.broadcast %r : tensor<1x16xi32> -> tensor<64x16xi32>
  %off = arith.addi %xb, %rb : tensor<64x16xi32>
  %base = tt.splat %src : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %p = tt.addptr %base, %off : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
  %v = tt.load %p : tensor<64x16x!tt.ptr<f32>>
  %ob = tt.splat %out : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %op = tt.addptr %ob, %off : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
  tt.store %op, %v : tensor<64x16x!tt.ptr<f32>>
  tt.return
}

// -----

// Contiguous along the first dimension, but through tt.trans, which the transposition does not
// cover: left as it is.
// CHECK-LABEL: tt.func @through_trans
// CHECK: tt.load %{{.+}} : tensor<64x16x!tt.ptr<f32>>
// CHECK: tt.trans %{{.+}} {order = array<i32: 1, 0>} : tensor<64x16xf32> -> tensor<16x64xf32>
tt.func @through_trans(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %stride = arith.constant dense<64> : tensor<1x16xi32>
  %xr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x = tt.expand_dims %xr {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.expand_dims %rr {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ro = arith.muli %r, %stride : tensor<1x16xi32>
  %xb = tt.broadcast %x : tensor<64x1xi32> -> tensor<64x16xi32>
  %rb = tt.broadcast %ro : tensor<1x16xi32> -> tensor<64x16xi32>
  %off = arith.addi %xb, %rb : tensor<64x16xi32>
  %base = tt.splat %src : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %p = tt.addptr %base, %off : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
  %v = tt.load %p : tensor<64x16x!tt.ptr<f32>>
  %t = tt.trans %v {order = array<i32: 1, 0>} : tensor<64x16xf32> -> tensor<16x64xf32>
  %c16 = arith.constant dense<16> : tensor<1x64xi32>
  %tr = tt.expand_dims %rr {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %tx = tt.expand_dims %xr {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %txo = arith.muli %tx, %c16 : tensor<1x64xi32>
  %trb = tt.broadcast %tr : tensor<16x1xi32> -> tensor<16x64xi32>
  %txb = tt.broadcast %txo : tensor<1x64xi32> -> tensor<16x64xi32>
  %toff = arith.addi %trb, %txb : tensor<16x64xi32>
  %ob = tt.splat %out : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
  %op = tt.addptr %ob, %toff : tensor<16x64x!tt.ptr<f32>>, tensor<16x64xi32>
  tt.store %op, %t : tensor<16x64x!tt.ptr<f32>>
  tt.return
}
