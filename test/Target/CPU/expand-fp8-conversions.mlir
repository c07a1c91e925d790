// RUN: tritium-opt %s --tritium-cpu-expand-fp8-conversions | FileCheck %s

// Rounding to nearest even adds 2^(shift-1) - 1 plus the lowest kept bit; the field
// saturates at 0x7E (448) and NaN becomes 0x7F with the sign.
// CHECK-LABEL: func.func @f32_to_e4m3fn
// CHECK-DAG: %[[HALF:.+]] = arith.constant 524287 : i32
// CHECK-DAG: %[[MAX:.+]] = arith.constant 126 : i32
// CHECK-DAG: %[[NAN:.+]] = arith.constant 127 : i32
// CHECK: %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.addi %[[HALF]]
// CHECK: math.roundeven
// CHECK: arith.minui %{{.+}}, %[[MAX]] : i32
// CHECK: arith.cmpf uno
// CHECK: arith.ori %[[NAN]]
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK: arith.bitcast %{{.+}} : i8 to f8E4M3FN
// CHECK-NOT: arith.truncf
func.func @f32_to_e4m3fn(%x: f32) -> f8E4M3FN {
  %y = arith.truncf %x : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// Toward zero drops the bits (no rounding increment) and truncates subnormals.
// CHECK-LABEL: func.func @f16_tensor_to_e5m2_toward_zero
// CHECK: arith.extf %{{.+}} : tensor<4xf16> to tensor<4xf32>
// CHECK-NOT: math.roundeven
// CHECK: math.trunc %{{.+}} : tensor<4xf32>
// CHECK: arith.bitcast %{{.+}} : tensor<4xi8> to tensor<4xf8E5M2>
func.func @f16_tensor_to_e5m2_toward_zero(%x: tensor<4xf16>) -> tensor<4xf8E5M2> {
  %y = arith.truncf %x toward_zero : tensor<4xf16> to tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}

// A 4-bit-exponent format decodes through the host's f16 conversion: the sign to f16's bit 15,
// the 7 low bits shifted by 7 into f16's exponent and mantissa (f16's subnormals cover the
// format's), times 2^(15 - bias) (bias 8: 128); the byte 0x80 is NaN. To bf16, every fp8 value
// is exact: the high half of the f32 bits, no rounding.
// CHECK-LABEL: func.func @e4m3fnuz_to_bf16
// CHECK-DAG: %[[SCALE:.+]] = arith.constant 1.280000e+02 : f32
// CHECK-DAG: %[[NANBYTE:.+]] = arith.constant 128 : i16
// CHECK: %[[BYTE:.+]] = arith.bitcast %{{.+}} : f8E4M3FNUZ to i8
// CHECK: %[[BITS:.+]] = arith.extui %[[BYTE]] : i8 to i16
// CHECK: %[[HALF:.+]] = arith.bitcast %{{.+}} : i16 to f16
// CHECK: %[[WIDE:.+]] = arith.extf %[[HALF]] : f16 to f32
// CHECK: arith.mulf %[[WIDE]], %[[SCALE]] : f32
// CHECK: arith.cmpi eq, %[[BITS]], %[[NANBYTE]] : i16
// CHECK: arith.shrui %{{.+}}, %c16_i32 : i32
// CHECK: arith.trunci %{{.+}} : i32 to i16
// CHECK: arith.bitcast %{{.+}} : i16 to bf16
// CHECK-NOT: arith.truncf
func.func @e4m3fnuz_to_bf16(%x: f8E4M3FNUZ) -> bf16 {
  %y = arith.extf %x : f8E4M3FNUZ to bf16
  return %y : bf16
}

// e5m2 is the high byte of an f16: to f16 a shift, to f32 the f16's conversion. e5m2fnuz (its
// top exponent finite) rebiases its exponent (127 - 16 = 111, shifted by the 2 mantissa bits:
// 444) instead.
// CHECK-LABEL: func.func @e5m2_to_f16_f32_and_fnuz
// CHECK: %[[BITS:.+]] = arith.extui %{{.+}} : tensor<4xi8> to tensor<4xi16>
// CHECK: %[[HIGH:.+]] = arith.shli %[[BITS]], %{{.+}} : tensor<4xi16>
// CHECK: %[[HALF:.+]] = arith.bitcast %[[HIGH]] : tensor<4xi16> to tensor<4xf16>
// CHECK: arith.extui %{{.+}} : tensor<4xi8> to tensor<4xi16>
// CHECK: %[[HALF2:.+]] = arith.bitcast %{{.+}} : tensor<4xi16> to tensor<4xf16>
// CHECK: arith.extf %[[HALF2]] : tensor<4xf16> to tensor<4xf32>
// CHECK: arith.addi %{{.+}}, %c444_i32 : i32
// CHECK: return %[[HALF]],
func.func @e5m2_to_f16_f32_and_fnuz(%x: tensor<4xf8E5M2>, %z: f8E5M2FNUZ) -> (tensor<4xf16>, tensor<4xf32>, f32) {
  %h = arith.extf %x : tensor<4xf8E5M2> to tensor<4xf16>
  %f = arith.extf %x : tensor<4xf8E5M2> to tensor<4xf32>
  %g = arith.extf %z : f8E5M2FNUZ to f32
  return %h, %f, %g : tensor<4xf16>, tensor<4xf32>, f32
}

// Integers reach fp8 through f64; fp8 reaches integers through f32.
// CHECK-LABEL: func.func @integers
// CHECK: arith.sitofp %{{.+}} : i32 to f64
// CHECK: arith.bitcast %{{.+}} : f64 to i64
// CHECK: arith.fptosi %{{.+}} : f32 to i32
func.func @integers(%i: i32, %x: f8E5M2FNUZ) -> (f8E5M2, i32) {
  %y = arith.sitofp %i : i32 to f8E5M2
  %j = arith.fptosi %x : f8E5M2FNUZ to i32
  return %y, %j : f8E5M2, i32
}

// Comparisons compare the decoded values.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
func.func @compare(%a: f8E5M2, %b: f8E5M2) -> i1 {
  %c = arith.cmpf olt, %a, %b : f8E5M2
  return %c : i1
}

// abs and negation work on the sign bit (infinities stay infinite); FNUZ formats keep 0x80 (NaN)
// and zero as they are. maximum selects an operand's bits after comparing decoded values.
// CHECK-LABEL: func.func @sign_ops
// CHECK: %[[A:.+]] = arith.bitcast %arg0 : f8E5M2 to i8
// CHECK: arith.andi %[[A]], %c127_i8
// CHECK: %[[N:.+]] = arith.bitcast %arg1 : f8E4M3FNUZ to i8
// CHECK: %[[FLIP:.+]] = arith.xori %[[N]], %c-128_i8
// CHECK: %[[MAG:.+]] = arith.andi %[[N]], %c127_i8
// CHECK: %[[KEEP:.+]] = arith.cmpi eq, %[[MAG]], %c0_i8
// CHECK: arith.select %[[KEEP]], %[[N]], %[[FLIP]]
// CHECK: arith.maximumf {{.+}} : f32
// CHECK: arith.select %{{.+}}, %arg0, %arg2 : f8E5M2
func.func @sign_ops(%x: f8E5M2, %y: f8E4M3FNUZ, %z: f8E5M2) -> (f8E5M2, f8E4M3FNUZ, f8E5M2) {
  %0 = math.absf %x : f8E5M2
  %1 = arith.negf %y : f8E4M3FNUZ
  %2 = arith.maximumf %x, %z : f8E5M2
  return %0, %1, %2 : f8E5M2, f8E4M3FNUZ, f8E5M2
}
