// RUN: not tritium-opt %s -split-input-file 2>&1 | FileCheck %s

// The second piece of a split input holds two modules.
// CHECK: one-module-per-split-input.mlir:13: error: one module per input: found 2 top-level modules
module {
  tt.func @alone() {
    tt.return
  }
}

// -----

module {
  tt.func @first() {
    tt.return
  }
}
module {
  tt.func @second() {
    tt.return
  }
}
