//===- TypeConverter.cpp - tt types to the types of the linalg form -------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;

namespace tritium {

TritonToLinalgTypeConverter::TritonToLinalgTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](tt::PointerType) -> Type { return LLVM::LLVMPointerType::get(context); });
  // A tensor of pointers holds i64 addresses: tensors of !llvm.ptr cannot be bufferized.
  addConversion([context](RankedTensorType type) -> Type {
    if (isa<tt::PointerType>(type.getElementType()))
      return type.clone(IntegerType::get(context, 64));
    return type;
  });
}

} // namespace tritium
