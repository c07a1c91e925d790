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

// -----

//===----------------------------------------------------------------------===//
// Tensor sizes (every tt op)
//===----------------------------------------------------------------------===//

tt.func @tensor_size_not_power_of_two(%x: f32) {
  // expected-error @+1 {{result #0 has 3 elements; the number of elements of a tensor must be a power of two}}
  %0 = tt.splat %x : f32 -> tensor<3xf32>
  tt.return
}

// -----

tt.func @tensor_size_too_large(%x: f32) {
  // expected-error @+1 {{result #0 has 2097152 elements, more than the 1048576 a tensor may have}}
  %0 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// tt.dot
//===----------------------------------------------------------------------===//

tt.func @dot_element_width(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{a and b must have element types of the same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

// Accepted: two fp8 formats of the same width.
tt.func @dot_mixed_fp8(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %c: tensor<16x16xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_batch(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{the batch dimensions differ}}
  %0 = tt.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<4x16x16xf16> -> tensor<2x16x16xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// tt.dot_scaled
//===----------------------------------------------------------------------===//

// Accepted: e2m1 packs two values of K per i8, one scale per 32 values.
tt.func @dot_scaled_e2m1(%a: tensor<32x32xi8>, %as: tensor<32x2xi8>, %b: tensor<32x32xi8>, %bs: tensor<32x2xi8>, %c: tensor<32x32xf32>) {
  %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<32x32xi8>, tensor<32x2xi8> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_k(%a: tensor<32x32xi8>, %b: tensor<32x32xbf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{the K dimensions of a and b differ (64 vs 32 values once e2m1 is unpacked)}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x32xi8> * tensor<32x32xbf16> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_result(%a: tensor<16x64xi8>, %b: tensor<64x32xbf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{the result must be 32 x 32 (M x N once e2m1 is unpacked)}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false, lhs_k_pack = false} : tensor<16x64xi8> * tensor<64x32xbf16> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_factor(%a: tensor<32x64xf8E4M3FN>, %as: tensor<32x8xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{each scale of a must cover 16 or 32 values of K, but covers 8}}
  %0 = tt.dot_scaled %a scale %as, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x8xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_factors_differ(%a: tensor<32x64xf8E4M3FN>, %as: tensor<32x2xi8>, %b: tensor<64x32xf8E4M3FN>, %bs: tensor<32x4xi8>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{a and b are scaled per 32 and per 16 values of K; they must agree}}
  %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<64x32xf8E4M3FN>, tensor<32x4xi8> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_rows(%a: tensor<32x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %bs: tensor<16x2xi8>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{the scale of b must have N = 32 rows}}
  %0 = tt.dot_scaled %a, %b scale %bs, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN> * tensor<64x32xf8E4M3FN>, tensor<16x2xi8> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_rank(%a: tensor<32x64xf8E4M3FN>, %as: tensor<64xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{scales must have the rank of the operands}}
  %0 = tt.dot_scaled %a scale %as, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<64xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_rank(%a: tensor<64xf8E4M3FN>, %b: tensor<64xf8E4M3FN>, %c: tensor<32xf32>) {
  // expected-error @+1 {{operands must all be 2-D, or all 3-D (batched)}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64xf8E4M3FN> * tensor<64xf8E4M3FN> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_batch(%a: tensor<2x32x64xbf16>, %b: tensor<4x64x32xbf16>, %c: tensor<2x32x32xf32>) {
  // expected-error @+1 {{the batch dimensions differ}}
  %0 = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<2x32x64xbf16> * tensor<4x64x32xbf16> -> tensor<2x32x32xf32>
  tt.return
}

// -----

// A single scale value tells nothing of the factor, which comes from a's scale.
tt.func @dot_scaled_scale_columns(%a: tensor<32x64xf8E4M3FN>, %as: tensor<32x2xi8>, %b: tensor<64x1xf8E4M3FN>, %bs: tensor<1x1xi8>, %c: tensor<32x1xf32>) {
  // expected-error @+1 {{the scale of b must have K / 32 = 2 columns}}
  %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<64x1xf8E4M3FN>, tensor<1x1xi8> -> tensor<32x1xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// tt.reduce and tt.scan
//===----------------------------------------------------------------------===//

tt.func @reduce_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 must have the shape of operand #0 without dimension 1}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @reduce_scalar_result(%x: tensor<8xf32>) {
  // expected-error @+1 {{result #0 must be a scalar, since operand #0 is 1-D}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> tensor<1xf32>
  tt.return
}

// -----

tt.func @reduce_operand_shapes(%x: tensor<8xf32>, %y: tensor<16xi32>) {
  // expected-error @+1 {{all operands must have the same shape}}
  %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tt.reduce.return %a, %b : f32, i32
  }) : (tensor<8xf32>, tensor<16xi32>) -> (f32, i32)
  tt.return
}

// -----

tt.func @reduce_return_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{the combiner must return one value per operand (1), got 2}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{result #0 must have the type of operand #0}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @scan_result_element_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{result #0 must have the element type of operand #0}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @scan_result_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{must have one result per operand, got 2 results for 1 operands}}
  %0:2 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  tt.return
}

// -----

tt.func @scan_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 1 is out of range}}
  %0 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @scan_combiner_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{the combiner takes two arguments per operand}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32):
    tt.scan.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @scan_combiner_argument_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner argument types must match the operand element types}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f16):
    tt.scan.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @scan_combiner_result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{the combiner returns 'i32' as value #0, expected the element type 'f32'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.fptosi %a : f32 to i32
    tt.scan.return %s : i32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @scan_combiner_terminator(%x: tensor<8xf32>) {
  // expected-error @+1 {{the combiner must end with 'tt.scan.return'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    llvm.unreachable
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// tt.gather
//===----------------------------------------------------------------------===//

// Accepted: the gather axis may change size, the other dimensions may not.
tt.func @gather_rows(%src: tensor<16x32xf32>, %idx: tensor<64x32xi32>) {
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<16x32xf32>, tensor<64x32xi32>) -> tensor<64x32xf32>
  tt.return
}

// -----

tt.func @gather_result_shape(%src: tensor<64xf32>, %idx: tensor<32xi32>) {
  // expected-error @+1 {{result must have the shape of the indices}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<64xf32>, tensor<32xi32>) -> tensor<64xf32>
  tt.return
}

// -----

tt.func @gather_element_type(%src: tensor<64xf32>, %idx: tensor<32xi32>) {
  // expected-error @+1 {{result must have the element type of the source}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<64xf32>, tensor<32xi32>) -> tensor<32xf16>
  tt.return
}

// -----

tt.func @gather_rank(%src: tensor<16x32xf32>, %idx: tensor<32xi32>) {
  // expected-error @+1 {{source and indices must have the same rank}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<16x32xf32>, tensor<32xi32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<64xf32>, %idx: tensor<32xi32>) {
  // expected-error @+1 {{axis 1 is out of range for a rank-1 source}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<64xf32>, tensor<32xi32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @gather_other_dimension(%src: tensor<16x32xf32>, %idx: tensor<8x32xi32>) {
  // expected-error @+1 {{indices dimension 0 (8) must equal source dimension 0 (16); only the gather axis 1 may differ}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<8x32xi32>) -> tensor<8x32xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// tt.histogram
//===----------------------------------------------------------------------===//

tt.func @histogram_mask_shape(%x: tensor<128xi32>, %m: tensor<64xi1>) {
  // expected-error @+1 {{failed to verify that mask is i1 with the shape of src}}
  %0 = "tt.histogram"(%x, %m) : (tensor<128xi32>, tensor<64xi1>) -> tensor<16xi32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

// Accepted: signed descriptor elements match signless tensors, and a block
// may be moved with its unit dimensions dropped.
tt.func @descriptor_accepted(%d: !tt.tensordesc<16x32xsi32>, %e: !tt.tensordesc<1x16x32xf16>, %i: i32, %v: tensor<16x32xi32>) {
  tt.descriptor_reduce add, %d[%i, %i], %v : !tt.tensordesc<16x32xsi32>, tensor<16x32xi32>
  %0 = tt.descriptor_load %e[%i, %i, %i] : !tt.tensordesc<1x16x32xf16> -> tensor<16x32xf16>
  tt.return
}

// -----

tt.func @descriptor_load_element_type(%d: !tt.tensordesc<16x32xf16>, %i: i32) {
  // expected-error @+1 {{tensor element type 'f32' must match the descriptor's, 'f16'}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<16x32xf16> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @descriptor_store_elements(%d: !tt.tensordesc<16x32xf16>, %i: i32, %v: tensor<16x16xf16>) {
  // expected-error @+1 {{tensor must have as many elements as the descriptor block (512), got 256}}
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<16x32xf16>, tensor<16x16xf16>
  tt.return
}

// -----

tt.func @descriptor_reduce_elements(%d: !tt.tensordesc<16x32xf32>, %i: i32, %v: tensor<32x32xf32>) {
  // expected-error @+1 {{tensor must have as many elements as the descriptor block (512), got 1024}}
  tt.descriptor_reduce add, %d[%i, %i], %v : !tt.tensordesc<16x32xf32>, tensor<32x32xf32>
  tt.return
}

// -----

// Accepted: 8 rows of a one-row block.
tt.func @descriptor_gather(%d: !tt.tensordesc<1x64xf32>, %x: tensor<8xi32>, %y: i32) {
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x64xf32>, tensor<8xi32>, i32) -> tensor<8x64xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_block_rank(%d: !tt.tensordesc<64xf32>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{the descriptor block must be 2-D, got rank 1}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<64xf32>, tensor<8xi32>, i32) -> tensor<8x64xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_offsets_rank(%d: !tt.tensordesc<1x64xf32>, %x: tensor<8x1xi32>, %y: i32) {
  // expected-error @+1 {{x_offsets must be 1-D, got rank 2}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x64xf32>, tensor<8x1xi32>, i32) -> tensor<8x64xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_block_rows(%d: !tt.tensordesc<2x64xf32>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{the descriptor block must have exactly one row, got 2}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<2x64xf32>, tensor<8xi32>, i32) -> tensor<8x64xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_few_rows(%d: !tt.tensordesc<1x64xf32>, %x: tensor<4xi32>, %y: i32) {
  // expected-error @+1 {{the result must have at least 8 rows, got 4}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x64xf32>, tensor<4xi32>, i32) -> tensor<4x64xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_narrow(%d: !tt.tensordesc<1x8xf16>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{the result must have at least 16 columns of 'f16', got 8}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x8xf16>, tensor<8xi32>, i32) -> tensor<8x8xf16>
  tt.return
}

// -----

tt.func @descriptor_gather_wide_elements(%d: !tt.tensordesc<1x64xf64>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{the result must have elements of at most 32 bits}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x64xf64>, tensor<8xi32>, i32) -> tensor<8x64xf64>
  tt.return
}

// -----

tt.func @descriptor_gather_columns(%d: !tt.tensordesc<1x64xf32>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{the result must have the 64 columns of the descriptor block, got 32}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x64xf32>, tensor<8xi32>, i32) -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @descriptor_scatter_rows(%d: !tt.tensordesc<1x64xf32>, %x: tensor<16xi32>, %y: i32, %v: tensor<8x64xf32>) {
  // expected-error @+1 {{the source must have one row per x offset (16), got 8}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<1x64xf32>, tensor<16xi32>, i32, tensor<8x64xf32>
  tt.return
}

// -----

tt.func @descriptor_scatter_element_type(%d: !tt.tensordesc<1x64xf32>, %x: tensor<8xi32>, %y: i32, %v: tensor<8x64xi32>) {
  // expected-error @+1 {{the source element type 'i32' must match the descriptor's, 'f32'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<1x64xf32>, tensor<8xi32>, i32, tensor<8x64xi32>
  tt.return
}
