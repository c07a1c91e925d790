// RUN: tritium-opt %s -split-input-file -verify-diagnostics

tt.func @expand_dims_axis(%x: tensor<8xi32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-1 tensor}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%x: tensor<8xi32>) {
  // expected-error @+1 {{result shape must be the source shape with a 1 inserted at axis 0}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  tt.return
}

// -----

tt.func @reshape_count(%x: tensor<8xi32>) {
  // expected-error @+1 {{source and result must have the same number of elements}}
  %0 = tt.reshape %x : tensor<8xi32> -> tensor<4x4xi32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<8xi32>) {
  // expected-error @+1 {{source and result must have the same rank}}
  %0 = tt.broadcast %x : tensor<8xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func @broadcast_non_unit(%x: tensor<2x8xi32>) {
  // expected-error @+1 {{only dimensions of size 1 can be broadcast}}
  %0 = tt.broadcast %x : tensor<2x8xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func @trans_not_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of the dimensions}}
  %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result dimension 0 must equal source dimension 1}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{end must be greater than start}}
  %0 = tt.make_range {end = 0 : i32, start = 4 : i32} : tensor<4xi32>
  tt.return
}

// -----

tt.func @make_range_size() {
  // expected-error @+1 {{result size must be end - start}}
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<4xi32>
  tt.return
}

// -----

tt.func @dot_k_mismatch(%a: tensor<16x32xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{the K dimensions of a and b differ}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>) {
  // expected-error @+1 {{operands must all be 2-D, or all 3-D (batched)}}
  %0 = tt.dot %a, %b, %c : tensor<16xf32> * tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_combiner_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{the combiner takes two arguments per operand}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 1 is out of range}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{source and result element types must have the same bit width}}
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xi64>
  tt.return
}

// -----

tt.func @load_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{mask must be i1 with the shape of the pointer operand}}
  %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x!tt.ptr<f32>>, tensor<4xi1>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @store_value_type(%p: !tt.ptr<f32>, %v: i32) {
  // expected-error @+1 {{value type must be the pointee type of the pointer operand}}
  "tt.store"(%p, %v) : (!tt.ptr<f32>, i32) -> ()
  tt.return
}

// -----

tt.func private @callee(%x: f32) -> f32

tt.func @call_types(%x: i32) {
  // expected-error @+1 {{operand or result types do not match the callee's signature}}
  %0 = tt.call @callee(%x) : (i32) -> f32
  tt.return
}
