// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg -verify-diagnostics

// An op without a lowering is named, at its location; nothing is converted.
tt.func @histogram(%arg0: tensor<16xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{tritium cannot lower 'tt.histogram' yet: no conversion to linalg exists for this operation}}
  %0 = tt.histogram %arg0 : tensor<16xi32> -> tensor<8xi32>
  tt.return %0 : tensor<8xi32>
}
