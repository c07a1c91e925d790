// RUN: not tritium-opt %s 2>&1 | FileCheck %s

// Two modules without a separator between them, read without --split-input-file.
// CHECK: error: one module per input: found 2 top-level modules; separate them with {{.*}} and pass --split-input-file, or give each its own file
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
