//===- TypeConverter.cpp - tt types to the types of the linalg form -------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"
#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;

namespace tritium {

TritonToLinalgTypeConverter::TritonToLinalgTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](tt::PointerType) -> Type { return LLVM::LLVMPointerType::get(context); });
  // A tensor of pointers holds i64 addresses: tensors of !llvm.ptr cannot be bufferized.
  // TTGIR layouts (tensor encodings) say where values live, not what they are: dropped.
  addConversion([context](RankedTensorType type) -> Type {
    Type element = type.getElementType();
    if (isa<tt::PointerType>(element))
      element = IntegerType::get(context, 64);
    return RankedTensorType::get(type.getShape(), element);
  });
  // A shared-memory tile is a buffer; views of it (memdesc_index/subslice) have any offset
  // and strides, so every tile uses the fully dynamic strided layout.
  addConversion([](ttg::MemDescType type) -> Type {
    SmallVector<int64_t> strides(type.getShape().size(), ShapedType::kDynamic);
    auto layout = StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides);
    return MemRefType::get(type.getShape(), type.getElementType(), layout);
  });
  // Asynchronous copies complete immediately on the CPU; their tokens carry nothing.
  addConversion([context](ttg::AsyncTokenType) -> Type { return IntegerType::get(context, 32); });
}

} // namespace tritium
