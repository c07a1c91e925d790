// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-dot-product-instructions{avx512-bf16=true avx512-vnni=true}),canonicalize)" | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-dot-product-instructions))" | FileCheck %s --check-prefix=NOHOST

// bf16: A's rows read as words of two K neighbours (A's own bytes: whole vectors bitcast), B
// packed into such words (the first in the low half), blocks of 8 x 32 of C summed with
// vdpbf16ps, one per row and 16 columns, K/2 steps.
// CHECK-LABEL: func.func @bf16
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c1 iter_args({{.+}}) -> (tensor<8x4xi32>)
// CHECK:   vector.transfer_read %arg0{{.+}} : tensor<8x8xbf16>, vector<8xbf16>
// CHECK:   vector.bitcast {{.+}} : vector<8xbf16> to vector<4xi32>
// CHECK:   vector.transfer_write {{.+}} : vector<4xi32>, tensor<8x4xi32>
// CHECK: tensor.expand_shape %arg1 {{\[}}[0, 1], [2]] output_shape [4, 2, 32] : tensor<8x32xbf16> into tensor<4x2x32xbf16>
// CHECK: linalg.generic
// CHECK:   arith.shli %{{.+}}, %c16_i32
// CHECK:   arith.ori
// CHECK: } -> tensor<4x32xi32>
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:   vector.transfer_read {{.+}} : tensor<4x32xi32>, vector<16xi32>
// CHECK:   vector.bitcast {{.+}} : vector<16xi32> to vector<32xbf16>
// CHECK:   tensor.extract {{.+}} : tensor<8x4xi32>
// CHECK:   vector.broadcast {{.+}} : i32 to vector<16xi32>
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"({{.+}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.matmul
// NOHOST-LABEL: func.func @bf16
// NOHOST: linalg.matmul
func.func @bf16(%a: tensor<8x8xbf16>, %b: tensor<8x32xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xbf16>, tensor<8x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// int8: words of four K neighbours; A's bytes biased to unsigned (xor 0x80808080 = -2139062144),
// C less 128 * the column sums of B (a shift by 7) before vpdpbusd adds the products. The
// column sums are vpdpbusd of bytes 1 (0x01010101 = 16843009) by B's words.
// CHECK-LABEL: func.func @int8
// CHECK-DAG: %[[SEVEN:.+]] = arith.constant dense<7> : vector<16xi32>
// CHECK-DAG: %[[ONES:.+]] = arith.constant dense<16843009> : vector<16xi32>
// CHECK-DAG: %[[FLIP:.+]] = arith.constant dense<-2139062144> : vector<2xi32>
// CHECK: vector.transfer_read %arg0{{.+}} : tensor<4x8xi8>, vector<8xi8>
// CHECK: arith.xori %{{.+}}, %[[FLIP]] : vector<2xi32>
// CHECK: arith.shli %{{.+}}, %c24_i32
// CHECK: %[[ONEBYTES:.+]] = vector.bitcast %[[ONES]] : vector<16xi32> to vector<64xi8>
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %[[ONEBYTES]], %{{.+}})
// CHECK: %[[BIAS:.+]] = arith.shli %{{.+}}, %[[SEVEN]] : vector<16xi32>
// CHECK: vector.transfer_read {{.+}} : tensor<4x16xi32>, vector<16xi32>
// CHECK: arith.subi %{{.+}}, %[[BIAS]]
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:   vector.bitcast {{.+}} : vector<16xi32> to vector<64xi8>
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// NOHOST-LABEL: func.func @int8
// NOHOST: linalg.matmul
func.func @int8(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// -----

// Left alone: N not a multiple of 16, K odd for pairs, unsigned int8, f32.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: llvm.call_intrinsic
// CHECK-COUNT-4: linalg.matmul
func.func @left_alone(%a: tensor<8x8xbf16>, %b: tensor<8x24xbf16>, %c: tensor<8x24xf32>,
                      %d: tensor<8x3xbf16>, %e: tensor<3x16xbf16>, %f: tensor<8x16xf32>,
                      %g: tensor<4x8xi8>, %h: tensor<8x16xi8>, %i: tensor<4x16xi32>,
                      %j: tensor<8x8xf32>, %k: tensor<8x16xf32>) -> (tensor<8x24xf32>, tensor<8x16xf32>, tensor<4x16xi32>, tensor<8x16xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xbf16>, tensor<8x24xbf16>) outs(%c : tensor<8x24xf32>) -> tensor<8x24xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<8x3xbf16>, tensor<3x16xbf16>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%g, %h : tensor<4x8xi8>, tensor<8x16xi8>) outs(%i : tensor<4x16xi32>) -> tensor<4x16xi32>
  %3 = linalg.matmul ins(%j, %k : tensor<8x8xf32>, tensor<8x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1, %2, %3 : tensor<8x24xf32>, tensor<8x16xf32>, tensor<4x16xi32>, tensor<8x16xf32>
}

// -----

// Two int8 products accumulating into one another: one loop nest whose C blocks sum both
// products' K steps (two K loops) between one load and one store; one correction, summed over
// both products' K groups.
// CHECK-LABEL: func.func @int8_chain
// CHECK: %[[SUM0:.+]] = scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args(%{{.+}} = %cst{{.*}}) -> (vector<16xi32>)
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: %[[SUM1:.+]] = scf.for %{{.+}} = %c0 to %c4 step %c1 iter_args(%{{.+}} = %[[SUM0]]) -> (vector<16xi32>)
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: %[[CORR:.+]] = arith.shli %[[SUM1]]
// CHECK: vector.transfer_read %arg4
// CHECK: arith.subi %{{.+}}, %[[CORR]]
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.transfer_write
// CHECK-NOT: scf.for
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @int8_chain(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %x: tensor<4x16xi8>, %y: tensor<16x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  %1 = linalg.matmul ins(%x, %y : tensor<4x16xi8>, tensor<16x16xi8>) outs(%0 : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %1 : tensor<4x16xi32>
}

// -----

// A kernel's K loop whose int8 product sums 16 K groups (BLOCK_K = 64) is unrolled by 4 into a
// chain of 64 groups per C round trip (the correction's four K loops, then the C blocks'); the
// remaining iterations run one product at a time.
// CHECK-LABEL: func.func @int8_k_loop
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %c4 iter_args
// CHECK-COUNT-4: scf.for %{{.+}} = %c0 to %c16 step %c1 iter_args({{[^,]+}}) -> (vector<16xi32>)
// CHECK-COUNT-4: scf.for %{{.+}} = %c0 to %c16 step %c1 iter_args({{.+}}, {{.+}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK-NOT: linalg.matmul
// CHECK: scf.yield
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args
// CHECK: scf.for %{{.+}} = %c0 to %c16 step %c1
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @int8_k_loop(%as: tensor<8x64xi8>, %bs: tensor<64x16xi8>, %n: index) -> tensor<8x16xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0> : tensor<8x16xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<8x16xi32>) {
    %d = linalg.matmul ins(%as, %bs : tensor<8x64xi8>, tensor<64x16xi8>) outs(%acc : tensor<8x16xi32>) -> tensor<8x16xi32>
    scf.yield %d : tensor<8x16xi32>
  }
  return %r : tensor<8x16xi32>
}

// -----

// bf16 keeps one product a C round trip: its K loop is not unrolled.
// CHECK-LABEL: func.func @bf16_k_loop
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args
// CHECK-COUNT-1: scf.for %{{.+}} = %c0 to %c32 step %c1 iter_args
// CHECK-NOT: scf.for %{{.+}} = %c0 to %c32 step %c1 iter_args
// CHECK: return
func.func @bf16_k_loop(%as: tensor<8x64xbf16>, %bs: tensor<64x16xbf16>, %n: index) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<8x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<8x16xf32>) {
    %d = linalg.matmul ins(%as, %bs : tensor<8x64xbf16>, tensor<64x16xbf16>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %d : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// -----

// A B tile tritium-cpu-read-tiles-in-place read packed ([K/g, N, g], handed over through the
// marked generic) is read as it is: rows of its collapsed [K/g, N*g] form, no second pack; the
// int8 correction sums the packed tile.
// CHECK-LABEL: func.func @b_read_packed
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2]] : tensor<2x16x4xi8> into tensor<2x64xi8>
// CHECK: scf.for
// CHECK:   vector.transfer_read %[[ROWS]]{{.+}} : tensor<2x64xi8>, vector<64xi8>
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: arith.shli
// CHECK: scf.for
// CHECK:   vector.transfer_read %[[ROWS]]{{.+}} : tensor<2x64xi8>, vector<64xi8>
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: tritium.unpacked_amx_tile
#packed_at = affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @b_read_packed(%a: tensor<4x8xi8>, %packed: tensor<2x16x4xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %empty = tensor.empty() : tensor<8x16xi8>
  %b = linalg.generic {indexing_maps = [#packed_at, #identity], iterator_types = ["parallel", "parallel"]} ins(%packed : tensor<2x16x4xi8>) outs(%empty : tensor<8x16xi8>) attrs = {tritium.unpacked_amx_tile} {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  } -> tensor<8x16xi8>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// -----

// A store between two products keeps them apart: a chain would read the first product's
// operands after it (a tile read where it lies in memory could change).
// CHECK-LABEL: func.func @int8_store_between
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK: llvm.store
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1
func.func @int8_store_between(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %x: tensor<4x16xi8>, %y: tensor<16x16xi8>, %c: tensor<4x16xi32>, %p: !llvm.ptr, %v: i32) -> tensor<4x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  llvm.store %v, %p : i32, !llvm.ptr
  %1 = linalg.matmul ins(%x, %y : tensor<4x16xi8>, tensor<16x16xi8>) outs(%0 : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %1 : tensor<4x16xi32>
}
