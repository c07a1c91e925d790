// RUN: tritium-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: tt.func @splat_of_constant
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<3> : tensor<8xi32>
// CHECK-NEXT: tt.return %[[C]]
tt.func @splat_of_constant() -> tensor<8xi32> {
  %c3 = arith.constant 3 : i32
  %0 = tt.splat %c3 : i32 -> tensor<8xi32>
  tt.return %0 : tensor<8xi32>
}

// -----

// CHECK-LABEL: tt.func @addptr_of_zero
// CHECK-SAME: (%[[P:[^:]+]]: !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[P]]
tt.func @addptr_of_zero(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %0 = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  tt.return %0 : !tt.ptr<f32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_splat
// CHECK-SAME: (%[[X:[^:]+]]: f32
// CHECK-NEXT: %[[S:.+]] = tt.splat %[[X]] : f32 -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[S]]
tt.func @broadcast_of_splat(%x: f32) -> tensor<4x8xf32> {
  %0 = tt.splat %x : f32 -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: tt.func @expand_dims_and_reshape_of_splat
// CHECK-SAME: (%[[X:[^:]+]]: i32
// CHECK-DAG: tt.splat %[[X]] : i32 -> tensor<8x1xi32>
// CHECK-DAG: tt.splat %[[X]] : i32 -> tensor<2x4xi32>
// CHECK-NOT: tt.expand_dims
// CHECK-NOT: tt.reshape
tt.func @expand_dims_and_reshape_of_splat(%x: i32) -> (tensor<8x1xi32>, tensor<2x4xi32>) {
  %0 = tt.splat %x : i32 -> tensor<8xi32>
  %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %2 = tt.reshape %0 : tensor<8xi32> -> tensor<2x4xi32>
  tt.return %1, %2 : tensor<8x1xi32>, tensor<2x4xi32>
}

// -----

// CHECK-LABEL: tt.func @trans_identity_and_constant
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-DAG: %[[C:.+]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK: tt.return %[[X]], %[[C]]
tt.func @trans_identity_and_constant(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = tt.trans %x {order = array<i32: 0, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %1 = tt.trans %c {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// Masks that are constant (a splat or a scalar): an all-true mask is dropped,
// together with `other`, and the attributes stay; a load with an all-false
// mask is its `other`.
// CHECK-LABEL: tt.func @load_with_constant_mask
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[O:[^:]+]]: tensor<8xf32>, %[[Q:[^:]+]]: !tt.ptr<f32>
// CHECK-NEXT: %[[A:.+]] = tt.load %[[P]] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>, isVolatile = true} : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[S:.+]] = tt.load %[[Q]] : !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[A]], %[[O]], %[[S]]
tt.func @load_with_constant_mask(%p: tensor<8x!tt.ptr<f32>>, %other: tensor<8xf32>, %q: !tt.ptr<f32>) -> (tensor<8xf32>, tensor<8xf32>, f32) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %false = arith.constant dense<false> : tensor<8xi1>
  %scalar_true = arith.constant true
  %0 = tt.load %p, %true, %other {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>, isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %p, %false, %other : tensor<8x!tt.ptr<f32>>
  %2 = tt.load %q, %scalar_true : !tt.ptr<f32>
  tt.return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, f32
}

// -----

// A mask that is not constant stays, and so does an all-false mask with no
// `other` to take the load's place (triton leaves that load too).
// CHECK-LABEL: tt.func @load_mask_kept
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[M:[^:]+]]: tensor<8xi1>
// CHECK-NEXT: %[[F:.+]] = arith.constant dense<false> : tensor<8xi1>
// CHECK-NEXT: %[[A:.+]] = tt.load %[[P]], %[[M]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[B:.+]] = tt.load %[[P]], %[[F]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[A]], %[[B]]
tt.func @load_mask_kept(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xf32>) {
  %false = arith.constant dense<false> : tensor<8xi1>
  %0 = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %p, %false : tensor<8x!tt.ptr<f32>>
  tt.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A store with an all-true mask loses it and keeps its attributes; stores
// with an all-false mask, tensor or scalar, are erased.
// CHECK-LABEL: tt.func @store_with_constant_mask
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[V:[^:]+]]: tensor<8xf32>
// CHECK-NEXT: tt.store %[[P]], %[[V]] {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_first>, ignore_cta} : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func @store_with_constant_mask(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %q: !tt.ptr<f32>, %s: f32) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %false = arith.constant dense<false> : tensor<8xi1>
  %scalar_false = arith.constant false
  tt.store %p, %v, %true {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_first>, ignore_cta} : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %false : tensor<8x!tt.ptr<f32>>
  tt.store %q, %s, %scalar_false : !tt.ptr<f32>
  tt.return
}

// -----

// A constant mask that is neither all true nor all false stays.
// CHECK-LABEL: tt.func @store_mask_kept
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[V:[^:]+]]: tensor<8xf32>
// CHECK-NEXT: %[[M:.+]] = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
// CHECK-NEXT: tt.store %[[P]], %[[V]], %[[M]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func @store_mask_kept(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>) {
  %m = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
  tt.store %p, %v, %m : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// An atomic store with an all-false mask is erased; triton keeps the mask of
// one with an all-true mask.
// CHECK-LABEL: tt.func @atomic_store_with_constant_mask
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[V:[^:]+]]: tensor<8xf32>
// CHECK-NEXT: %[[T:.+]] = arith.constant dense<true> : tensor<8xi1>
// CHECK-NEXT: tt.atomic_store release, gpu, %[[P]], %[[V]], %[[T]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func @atomic_store_with_constant_mask(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %false = arith.constant dense<false> : tensor<8xi1>
  tt.atomic_store release, gpu, %p, %v, %false : tensor<8x!tt.ptr<f32>>
  tt.atomic_store release, gpu, %p, %v, %true : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A pointer turned into an integer and back is a bitcast of the pointer, and
// no cast at all when the pointer types are the same.
// CHECK-LABEL: tt.func @int_to_ptr_of_ptr_to_int
// CHECK-SAME: (%[[P:[^:]+]]: !tt.ptr<f32>
// CHECK-NEXT: %[[B:.+]] = tt.bitcast %[[P]] : !tt.ptr<f32> -> !tt.ptr<i32>
// CHECK-NEXT: tt.return %[[P]], %[[B]]
tt.func @int_to_ptr_of_ptr_to_int(%p: !tt.ptr<f32>) -> (!tt.ptr<f32>, !tt.ptr<i32>) {
  %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %1 = tt.int_to_ptr %0 : i64 -> !tt.ptr<f32>
  %2 = tt.int_to_ptr %0 : i64 -> !tt.ptr<i32>
  tt.return %1, %2 : !tt.ptr<f32>, !tt.ptr<i32>
}

// -----

// A constant byte offset added to an address becomes an element offset:
// 16 bytes are 4 f32, 4 bytes (on either side of the addition) are 2 f16.
// CHECK-LABEL: tt.func @int_to_ptr_of_add_constant
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[I:[^:]+]]: i64
// CHECK-DAG: %[[C4:.+]] = arith.constant dense<4> : tensor<8xi64>
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[A:.+]] = tt.addptr %[[P]], %[[C4]] : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
// CHECK-DAG: %[[Q:.+]] = tt.int_to_ptr %[[I]] : i64 -> !tt.ptr<f16>
// CHECK-DAG: %[[B:.+]] = tt.addptr %[[Q]], %[[C2]] : !tt.ptr<f16>, i64
// CHECK: tt.return %[[A]], %[[B]]
tt.func @int_to_ptr_of_add_constant(%p: tensor<8x!tt.ptr<f32>>, %i: i64) -> (tensor<8x!tt.ptr<f32>>, !tt.ptr<f16>) {
  %c16 = arith.constant dense<16> : tensor<8xi64>
  %c4 = arith.constant 4 : i64
  %0 = tt.ptr_to_int %p : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  %1 = arith.addi %0, %c16 : tensor<8xi64>
  %2 = tt.int_to_ptr %1 : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  %3 = arith.addi %c4, %i : i64
  %4 = tt.int_to_ptr %3 : i64 -> !tt.ptr<f16>
  tt.return %2, %4 : tensor<8x!tt.ptr<f32>>, !tt.ptr<f16>
}

// -----

// 7 bytes are no whole number of f32; a bitcast may not change the address
// space.
// CHECK-LABEL: tt.func @int_to_ptr_kept
// CHECK-SAME: (%[[P:[^:]+]]: tensor<8x!tt.ptr<f32>>, %[[Q:[^:]+]]: !tt.ptr<f32, 3>
// CHECK-NOT: tt.addptr
// CHECK-NOT: tt.bitcast
// CHECK: %[[I:.+]] = tt.ptr_to_int %[[P]] : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[I]], %{{[^ ]+}} : tensor<8xi64>
// CHECK-NEXT: %[[A:.+]] = tt.int_to_ptr %[[S]] : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[J:.+]] = tt.ptr_to_int %[[Q]] : !tt.ptr<f32, 3> -> i64
// CHECK-NEXT: %[[B:.+]] = tt.int_to_ptr %[[J]] : i64 -> !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[A]], %[[B]]
tt.func @int_to_ptr_kept(%p: tensor<8x!tt.ptr<f32>>, %q: !tt.ptr<f32, 3>) -> (tensor<8x!tt.ptr<f32>>, !tt.ptr<f32>) {
  %c7 = arith.constant dense<7> : tensor<8xi64>
  %0 = tt.ptr_to_int %p : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  %1 = arith.addi %0, %c7 : tensor<8xi64>
  %2 = tt.int_to_ptr %1 : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  %3 = tt.ptr_to_int %q : !tt.ptr<f32, 3> -> i64
  %4 = tt.int_to_ptr %3 : i64 -> !tt.ptr<f32>
  tt.return %2, %4 : tensor<8x!tt.ptr<f32>>, !tt.ptr<f32>
}

// -----

// A bitcast to its own type is its operand.
// CHECK-LABEL: tt.func @bitcast_to_same_type
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8xf32>
// CHECK-NEXT: %[[B:.+]] = tt.bitcast %[[X]] : tensor<8xf32> -> tensor<8xi32>
// CHECK-NEXT: tt.return %[[X]], %[[B]]
tt.func @bitcast_to_same_type(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xf32>
  %1 = tt.bitcast %x : tensor<8xf32> -> tensor<8xi32>
  tt.return %0, %1 : tensor<8xf32>, tensor<8xi32>
}

// -----

// fp_to_fp folds zeros only: -0.0 stays negative where the format has a
// negative zero and becomes +0.0 in the FNUZ formats; 1.0 is not folded. A
// conversion to the same type is its operand.
// CHECK-LABEL: tt.func @fp_to_fp_of_zero
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8xf16>
// CHECK-DAG: %[[P:.+]] = arith.constant dense<0.000000e+00> : tensor<8xf8E5M2>
// CHECK-DAG: %[[N:.+]] = arith.constant dense<-0.000000e+00> : tensor<8xf8E5M2>
// CHECK-DAG: %[[U:.+]] = arith.constant 0.000000e+00 : f8E4M3FNUZ
// CHECK-DAG: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK: %[[C:.+]] = tt.fp_to_fp %[[ONE]], rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
// CHECK-NEXT: tt.return %[[P]], %[[N]], %[[U]], %[[C]], %[[X]]
tt.func @fp_to_fp_of_zero(%x: tensor<8xf16>) -> (tensor<8xf8E5M2>, tensor<8xf8E5M2>, f8E4M3FNUZ, tensor<8xf8E5M2>, tensor<8xf16>) {
  %pos = arith.constant dense<0.0> : tensor<8xf32>
  %neg = arith.constant dense<-0.0> : tensor<8xf32>
  %scalar_neg = arith.constant -0.0 : f32
  %one = arith.constant dense<1.0> : tensor<8xf32>
  %0 = tt.fp_to_fp %pos, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
  %1 = tt.fp_to_fp %neg, rounding = rtz : tensor<8xf32> -> tensor<8xf8E5M2>
  %2 = tt.fp_to_fp %scalar_neg, rounding = rtne : f32 -> f8E4M3FNUZ
  %3 = tt.fp_to_fp %one, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
  %4 = tt.fp_to_fp %x : tensor<8xf16> -> tensor<8xf16>
  tt.return %0, %1, %2, %3, %4 : tensor<8xf8E5M2>, tensor<8xf8E5M2>, f8E4M3FNUZ, tensor<8xf8E5M2>, tensor<8xf16>
}

// -----

// A range of one element is a constant; a longer one stays.
// CHECK-LABEL: tt.func @make_range_of_one
// CHECK-DAG: %[[C:.+]] = arith.constant dense<3> : tensor<1xi32>
// CHECK-DAG: %[[R:.+]] = tt.make_range {end = 4 : i32, start = 2 : i32} : tensor<2xi32>
// CHECK: tt.return %[[C]], %[[R]]
tt.func @make_range_of_one() -> (tensor<1xi32>, tensor<2xi32>) {
  %0 = tt.make_range {end = 4 : i32, start = 3 : i32} : tensor<1xi32>
  %1 = tt.make_range {end = 4 : i32, start = 2 : i32} : tensor<2xi32>
  tt.return %0, %1 : tensor<1xi32>, tensor<2xi32>
}

// -----

// Two transposes are one, with the composed order; orders that compose to
// the identity leave the source.
// CHECK-LABEL: tt.func @trans_of_trans
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x8xf32>
// CHECK-NEXT: %[[T:.+]] = tt.trans %[[X]] {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT: tt.return %[[X]], %[[T]]
tt.func @trans_of_trans(%x: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<8x2x4xf32>) {
  %0 = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %1 = tt.trans %0 {order = array<i32: 1, 0, 2>} : tensor<4x2x8xf32> -> tensor<2x4x8xf32>
  %2 = tt.trans %x {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %3 = tt.trans %2 {order = array<i32: 1, 2, 0>} : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  tt.return %1, %3 : tensor<2x4x8xf32>, tensor<8x2x4xf32>
}

// -----

// join(split x) is x, and split(join a, b) is a, b.
// CHECK-LABEL: tt.func @join_and_split
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x2xf32>, %[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>
// CHECK-NEXT: tt.return %[[X]], %[[B]], %[[A]]
tt.func @join_and_split(%x: tensor<4x2xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4x2xf32>, tensor<4xf32>, tensor<4xf32>) {
  %lo, %hi = tt.split %x : tensor<4x2xf32> -> tensor<4xf32>
  %0 = tt.join %lo, %hi : tensor<4xf32> -> tensor<4x2xf32>
  %1 = tt.join %a, %b : tensor<4xf32> -> tensor<4x2xf32>
  %2, %3 = tt.split %1 : tensor<4x2xf32> -> tensor<4xf32>
  tt.return %0, %3, %2 : tensor<4x2xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Halves joined back in the other order are another tensor.
// CHECK-LABEL: tt.func @join_of_swapped_split
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x2xf32>
// CHECK-NEXT: tt.split %[[X]] : tensor<4x2xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[J:.+]] = tt.join
// CHECK-NEXT: tt.return %[[J]]
tt.func @join_of_swapped_split(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %lo, %hi = tt.split %x : tensor<4x2xf32> -> tensor<4xf32>
  %0 = tt.join %hi, %lo : tensor<4xf32> -> tensor<4x2xf32>
  tt.return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x1xf32>
// CHECK-NEXT: %[[B:.+]] = tt.broadcast %[[X]] : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[B]]
tt.func @broadcast_of_broadcast(%x: tensor<1x1xf32>) -> tensor<4x8xf32> {
  %0 = tt.broadcast %x : tensor<1x1xf32> -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %1 : tensor<4x8xf32>
}

// -----

// expand_dims moves inside broadcasts, where broadcasts then merge:
// broadcast(expand_dims(broadcast y)) is broadcast(expand_dims y).
// CHECK-LABEL: tt.func @expand_dims_of_broadcast
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x8xf32>, %[[Y:[^:]+]]: tensor<1xf32>
// CHECK-NEXT: %[[E:.+]] = tt.expand_dims %[[X]] {axis = 0 : i32} : tensor<1x8xf32> -> tensor<1x1x8xf32>
// CHECK-NEXT: %[[B:.+]] = tt.broadcast %[[E]] : tensor<1x1x8xf32> -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[F:.+]] = tt.expand_dims %[[Y]] {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[C:.+]] = tt.broadcast %[[F]] : tensor<1x1xf32> -> tensor<8x4xf32>
// CHECK-NEXT: tt.return %[[B]], %[[C]]
tt.func @expand_dims_of_broadcast(%x: tensor<1x8xf32>, %y: tensor<1xf32>) -> (tensor<1x4x8xf32>, tensor<8x4xf32>) {
  %0 = tt.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf32>
  %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<4x8xf32> -> tensor<1x4x8xf32>
  %2 = tt.broadcast %y : tensor<1xf32> -> tensor<8xf32>
  %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %4 = tt.broadcast %3 : tensor<8x1xf32> -> tensor<8x4xf32>
  tt.return %1, %4 : tensor<1x4x8xf32>, tensor<8x4xf32>
}

// -----

// Two reshapes are one, which may reorder if either could; a reshape that
// undoes an expand_dims leaves its source.
// CHECK-LABEL: tt.func @reshape_of_reshape_and_expand_dims
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8xf32>
// CHECK-NEXT: %[[A:.+]] = tt.reshape %[[X]] : tensor<8xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[B:.+]] = tt.reshape %[[X]] allow_reorder : tensor<8xf32> -> tensor<2x2x2xf32>
// CHECK-NEXT: tt.return %[[A]], %[[B]], %[[X]]
tt.func @reshape_of_reshape_and_expand_dims(%x: tensor<8xf32>) -> (tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<8xf32>) {
  %0 = tt.reshape %x : tensor<8xf32> -> tensor<2x4xf32>
  %1 = tt.reshape %0 : tensor<2x4xf32> -> tensor<4x2xf32>
  %2 = tt.reshape %0 allow_reorder : tensor<2x4xf32> -> tensor<2x2x2xf32>
  %3 = tt.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %4 = tt.reshape %3 : tensor<1x8xf32> -> tensor<8xf32>
  tt.return %1, %2, %4 : tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<8xf32>
}

// -----

// A reshape with efficient_layout is left as written; one that may reorder
// does not undo an expand_dims.
// CHECK-LABEL: tt.func @reshape_kept
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8xf32>
// CHECK-NEXT: %[[A:.+]] = tt.reshape %[[X]] : tensor<8xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[B:.+]] = tt.reshape %[[A]] efficient_layout : tensor<2x4xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[E:.+]] = tt.expand_dims %[[X]] {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
// CHECK-NEXT: %[[C:.+]] = tt.reshape %[[E]] allow_reorder : tensor<1x8xf32> -> tensor<8xf32>
// CHECK-NEXT: tt.return %[[B]], %[[C]]
tt.func @reshape_kept(%x: tensor<8xf32>) -> (tensor<4x2xf32>, tensor<8xf32>) {
  %0 = tt.reshape %x : tensor<8xf32> -> tensor<2x4xf32>
  %1 = tt.reshape %0 efficient_layout : tensor<2x4xf32> -> tensor<4x2xf32>
  %2 = tt.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %3 = tt.reshape %2 allow_reorder : tensor<1x8xf32> -> tensor<8xf32>
  tt.return %1, %3 : tensor<4x2xf32>, tensor<8xf32>
}

// -----

// reshape and expand_dims keep the order of the elements, so they fold any
// constant; broadcast folds only splats.
// CHECK-LABEL: tt.func @reshape_and_expand_dims_of_constant
// CHECK-DAG: %[[R:.+]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-DAG: %[[E:.+]] = arith.constant dense<{{\[\[}}1], [2], [3], [4]]> : tensor<4x1xi32>
// CHECK: %[[B:.+]] = tt.broadcast %[[E]] : tensor<4x1xi32> -> tensor<4x2xi32>
// CHECK-NEXT: tt.return %[[R]], %[[E]], %[[B]]
tt.func @reshape_and_expand_dims_of_constant() -> (tensor<4xi32>, tensor<4x1xi32>, tensor<4x2xi32>) {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = tt.reshape %c : tensor<2x2xi32> -> tensor<4xi32>
  %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %2 = tt.broadcast %1 : tensor<4x1xi32> -> tensor<4x2xi32>
  tt.return %0, %1, %2 : tensor<4xi32>, tensor<4x1xi32>, tensor<4x2xi32>
}
