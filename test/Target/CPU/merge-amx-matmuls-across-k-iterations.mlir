// RUN: tritium-opt %s -split-input-file --tritium-cpu-merge-amx-matmuls-across-k-iterations | FileCheck %s

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// A kernel's K loop of bf16 tiles with K = 64 (2 tile steps): unrolled by 4 and the four
// products summed by one generic, then the remainder iterations one at a time.
// CHECK-LABEL: func.func @bf16_k_loop
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<32x32xf32>)
// CHECK-COUNT-4: linalg.transpose
// CHECK: %[[MERGED:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : {{.+}}) outs(%[[ACC]] : tensor<32x32xf32>) attrs = {tritium.amx_tiles}
// CHECK: ^bb0(%[[A0:.+]]: bf16, %[[B0:.+]]: bf16, %[[A1:.+]]: bf16, %[[B1:.+]]: bf16, %{{.+}}: bf16, %{{.+}}: bf16, %{{.+}}: bf16, %{{.+}}: bf16, %[[C:.+]]: f32):
// CHECK:   %[[X0:.+]] = arith.extf %[[A0]]
// CHECK:   %[[Y0:.+]] = arith.extf %[[B0]]
// CHECK:   %[[P0:.+]] = arith.mulf %[[X0]], %[[Y0]]
// CHECK:   %[[S0:.+]] = arith.addf %[[C]], %[[P0]]
// CHECK:   arith.extf %[[A1]]
// CHECK-COUNT-3: arith.addf
// CHECK: scf.yield %[[MERGED]]
// CHECK: scf.for
// CHECK:   linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : {{.+}}) outs(%{{.+}} : tensor<32x32xf32>) attrs = {tritium.amx_tiles}
func.func @bf16_k_loop(%as: tensor<32x64xbf16>, %bs: tensor<64x32xbf16>, %n: index) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) {
    %a3 = tensor.expand_shape %as [[0], [1, 2]] output_shape [32, 32, 2] : tensor<32x64xbf16> into tensor<32x32x2xbf16>
    %b3 = tensor.expand_shape %bs [[0, 1], [2]] output_shape [32, 2, 32] : tensor<64x32xbf16> into tensor<32x2x32xbf16>
    %e = tensor.empty() : tensor<32x32x2xbf16>
    %bp = linalg.transpose ins(%b3 : tensor<32x2x32xbf16>) outs(%e : tensor<32x32x2xbf16>) permutation = [0, 2, 1]
    %d = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %bp : tensor<32x32x2xbf16>, tensor<32x32x2xbf16>) outs(%acc : tensor<32x32xf32>) attrs = {tritium.amx_tiles} {
    ^bb0(%x: bf16, %y: bf16, %s: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %s, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// Left alone: an accumulator also read by something else (attention's `acc * correction`
// feeds the generic, not the iter_arg), and a generic with 8 steps already (K = 256 bf16).
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.for
// CHECK-COUNT-1: linalg.generic {{.+}}attrs = {tritium.amx_tiles}
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func @long_k
// CHECK: scf.for
// CHECK-COUNT-1: linalg.generic {{.+}}attrs = {tritium.amx_tiles}
// CHECK-NOT: scf.for
func.func @left_alone(%a3: tensor<32x32x2xbf16>, %bp: tensor<32x32x2xbf16>, %n: index) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) {
    %scaled = arith.addf %acc, %acc : tensor<32x32xf32>
    %d = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %bp : tensor<32x32x2xbf16>, tensor<32x32x2xbf16>) outs(%scaled : tensor<32x32xf32>) attrs = {tritium.amx_tiles} {
    ^bb0(%x: bf16, %y: bf16, %s: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %s, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}
func.func @long_k(%a3: tensor<32x128x2xbf16>, %bp: tensor<128x32x2xbf16>, %n: index) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) {
    %d = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %bp : tensor<32x128x2xbf16>, tensor<128x32x2xbf16>) outs(%acc : tensor<32x32xf32>) attrs = {tritium.amx_tiles} {
    ^bb0(%x: bf16, %y: bf16, %s: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %s, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// A store in the loop keeps the iterations' products apart (the merged generic would read the
// earlier iterations' operands after later stores): the loop is unrolled, the generics stay.
// CHECK-LABEL: func.func @store_in_k_loop
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %{{.+}} iter_args
// CHECK-COUNT-4: linalg.generic {{.+}} ins(%{{[^,]+}}, %{{[^,]+}} : {{.+}}) outs(%{{.+}} : tensor<32x32xf32>) attrs = {tritium.amx_tiles}
// CHECK-NOT: ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK: return
func.func @store_in_k_loop(%as: tensor<32x64xbf16>, %bs: tensor<64x32xbf16>, %n: index, %p: !llvm.ptr, %v: i32) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) {
    %a3 = tensor.expand_shape %as [[0], [1, 2]] output_shape [32, 32, 2] : tensor<32x64xbf16> into tensor<32x32x2xbf16>
    %b3 = tensor.expand_shape %bs [[0, 1], [2]] output_shape [32, 2, 32] : tensor<64x32xbf16> into tensor<32x2x32xbf16>
    %e = tensor.empty() : tensor<32x32x2xbf16>
    %bp = linalg.transpose ins(%b3 : tensor<32x2x32xbf16>) outs(%e : tensor<32x32x2xbf16>) permutation = [0, 2, 1]
    llvm.store %v, %p : i32, !llvm.ptr
    %d = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %bp : tensor<32x32x2xbf16>, tensor<32x32x2xbf16>) outs(%acc : tensor<32x32xf32>) attrs = {tritium.amx_tiles} {
    ^bb0(%x: bf16, %y: bf16, %s: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %s, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}
