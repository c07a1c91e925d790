//===- TritonDialect.td - tritium's definition of Triton's `tt` dialect ---===//
//
// The `tt` dialect as tritium reads it. The textual format is the interface
// with stock triton: everything here must parse exactly what triton 3.9 prints.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TT_DIALECT
#define TRITIUM_TT_DIALECT

include "mlir/IR/OpBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::tritium::tt";
  let summary = "Triton IR (TTIR), as read and written by tritium";
  let description = [{
    Triton's tile-level IR: tensors of values and of pointers, with program ids,
    loads/stores through pointer tensors, dot, reductions and scans. Arithmetic,
    math and control flow come from the upstream arith, math and scf dialects.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

// Checks triton makes on every op of its dialects (implemented in C++, see
// tritium/Dialect/Triton/IR/Dialect.h): tensor sizes on tt ops, and on tt and
// ttg ops the encodings of tensors against the module they run in.
def TT_TensorSizeTrait : NativeOpTrait<"TensorSizeTrait"> {
  let cppNamespace = "::tritium::tt";
}
def TT_VerifyTensorLayoutsTrait : NativeOpTrait<"VerifyTensorLayoutsTrait"> {
  let cppNamespace = "::tritium::tt";
}

#endif // TRITIUM_TT_DIALECT
