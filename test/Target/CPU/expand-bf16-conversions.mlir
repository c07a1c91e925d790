// RUN: tritium-opt %s --tritium-cpu-expand-bf16-conversions | FileCheck %s

// f32 to bf16: round to nearest even on the bits, NaN made quiet.
// CHECK-LABEL: func.func @f32_to_bf16
// CHECK-NOT: arith.truncf
// CHECK: %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.addi %[[BITS]]
// CHECK: arith.trunci %{{.+}} : i32 to i16
// CHECK: arith.bitcast %{{.+}} : i16 to bf16
func.func @f32_to_bf16(%x: f32) -> bf16 {
  %y = arith.truncf %x : f32 to bf16
  return %y : bf16
}

// A signed i32 is rounded to odd at 24 bits (dropped bits ORed into the lowest kept one), so the
// f32 conversion is exact and the bf16 rounding the only one; the sign goes back on as f32.
// CHECK-LABEL: func.func @i32_to_bf16_rounds_once
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[WIDTH:.+]] = arith.constant 32 : i32
// CHECK-DAG: %[[KEEP:.+]] = arith.constant 24 : i32
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[X:.+]], %[[ZERO]] : i32
// CHECK: %[[MAG:.+]] = arith.select %[[NEG]]
// CHECK: %[[CLZ:.+]] = math.ctlz %[[MAG]] : i32
// CHECK: %[[BITS:.+]] = arith.subi %[[WIDTH]], %[[CLZ]] : i32
// CHECK: arith.subi %[[BITS]], %[[KEEP]] : i32
// CHECK: %[[INEXACT:.+]] = arith.cmpi ne
// CHECK: %[[STICKY:.+]] = arith.select %[[INEXACT]]
// CHECK: %[[ODD:.+]] = arith.ori %{{.+}}, %[[STICKY]] : i32
// CHECK: %[[F:.+]] = arith.uitofp %[[ODD]] : i32 to f32
// CHECK: %[[NEGF:.+]] = arith.negf %[[F]] : f32
// CHECK: arith.select %[[NEG]], %[[NEGF]], %[[F]] : f32
// CHECK: arith.bitcast %{{.+}} : i16 to bf16
// CHECK-NOT: arith.sitofp
func.func @i32_to_bf16_rounds_once(%x: i32) -> bf16 {
  %y = arith.sitofp %x : i32 to bf16
  return %y : bf16
}

// Unsigned i64 vectors: no sign handling.
// CHECK-LABEL: func.func @u64_vector_to_bf16
// CHECK-NOT: arith.cmpi slt
// CHECK: math.ctlz %{{.+}} : vector<4xi64>
// CHECK: arith.uitofp %{{.+}} : vector<4xi64> to vector<4xf32>
// CHECK: arith.bitcast %{{.+}} : vector<4xi16> to vector<4xbf16>
func.func @u64_vector_to_bf16(%x: vector<4xi64>) -> vector<4xbf16> {
  %y = arith.uitofp %x : vector<4xi64> to vector<4xbf16>
  return %y : vector<4xbf16>
}

// Up to 24 bits the f32 conversion is exact already: left as is.
// CHECK-LABEL: func.func @i16_to_bf16_untouched
// CHECK: arith.sitofp %{{.+}} : i16 to bf16
func.func @i16_to_bf16_untouched(%x: i16) -> bf16 {
  %y = arith.sitofp %x : i16 to bf16
  return %y : bf16
}

// bf16 negation flips the sign bit (NaN payloads kept).
// CHECK-LABEL: func.func @negate_bf16
// CHECK: %[[SIGN:.+]] = arith.constant -32768 : i16
// CHECK: arith.xori %{{.+}}, %[[SIGN]] : i16
func.func @negate_bf16(%x: bf16) -> bf16 {
  %y = arith.negf %x : bf16
  return %y : bf16
}

// bf16 fma: the product exact in f64, the sum's error by TwoSum, the sum rounded to odd at f64
// and again at f32 (one step of the last bit when inexact and even), then one rounding to bf16.
// CHECK-LABEL: func.func @fma_bf16_rounds_once
// CHECK-NOT: math.fma
// CHECK: %[[P:.+]] = arith.mulf %{{.+}}, %{{.+}} : f64
// CHECK: %[[S:.+]] = arith.addf %[[P]], %[[C:.+]] : f64
// CHECK: %[[CP:.+]] = arith.subf %[[S]], %[[P]] : f64
// CHECK: %[[PP:.+]] = arith.subf %[[S]], %[[CP]] : f64
// CHECK: %[[E1:.+]] = arith.subf %[[P]], %[[PP]] : f64
// CHECK: %[[E2:.+]] = arith.subf %[[C]], %[[CP]] : f64
// CHECK: %[[E:.+]] = arith.addf %[[E1]], %[[E2]] : f64
// CHECK: arith.cmpf one, %[[E]]
// CHECK: arith.bitcast %[[S]] : f64 to i64
// CHECK: %[[NARROW:.+]] = arith.truncf %{{.+}} : f64 to f32
// CHECK: arith.bitcast %[[NARROW]] : f32 to i32
// CHECK: arith.bitcast %{{.+}} : i16 to bf16
// CHECK-NOT: math.fma
func.func @fma_bf16_rounds_once(%a: bf16, %b: bf16, %c: bf16) -> bf16 {
  %y = math.fma %a, %b, %c : bf16
  return %y : bf16
}

// f16 fma the same way: the final rounding is LLVM's f32 -> f16 conversion.
// CHECK-LABEL: func.func @fma_f16_rounds_once
// CHECK-NOT: math.fma
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f64
// CHECK: arith.truncf %{{.+}} : f64 to f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @fma_f16_rounds_once(%a: f16, %b: f16, %c: f16) -> f16 {
  %y = math.fma %a, %b, %c : f16
  return %y : f16
}

// Other fmas are left to LLVM.
// CHECK-LABEL: func.func @fma_f32_untouched
// CHECK: math.fma %{{.+}}, %{{.+}}, %{{.+}} : f32
func.func @fma_f32_untouched(%a: f32, %b: f32, %c: f32) -> f32 {
  %y = math.fma %a, %b, %c : f32
  return %y : f32
}
