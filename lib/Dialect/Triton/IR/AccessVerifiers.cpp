//===- AccessVerifiers.cpp - verifiers of tt.gather and descriptor ops ----===//
//
// The rules triton 3.9 checks on indexed accesses: a gather takes the shape
// and layout of its indices and the element type of its source; a tensor
// moved through a descriptor has the descriptor block's element type and
// element count; a row gather or scatter moves whole rows of a one-row 2-D
// block, at least 8 of them and at least 32 bytes wide.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace tritium::tt;

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  RankedTensorType srcType = getSrc().getType(), indicesType = getIndices().getType();
  RankedTensorType resultType = getResult().getType();
  if (resultType.getShape() != indicesType.getShape())
    return emitOpError("result must have the shape of the indices");
  if (resultType.getEncoding() != indicesType.getEncoding())
    return emitOpError("result must have the encoding of the indices");
  if (resultType.getElementType() != srcType.getElementType())
    return emitOpError("result must have the element type of the source, ")
           << srcType.getElementType();
  if (srcType.getRank() != indicesType.getRank())
    return emitOpError("source and indices must have the same rank");
  unsigned axis = getAxis();
  if (axis >= srcType.getRank())
    return emitOpError("axis ") << axis << " is out of range for a rank-" << srcType.getRank()
                                << " source";
  // Only the gathered dimension may differ in size.
  for (unsigned dim = 0; dim < srcType.getRank(); ++dim)
    if (dim != axis && indicesType.getDimSize(dim) != srcType.getDimSize(dim))
      return emitOpError("indices dimension ")
             << dim << " (" << indicesType.getDimSize(dim) << ") must equal source dimension "
             << dim << " (" << srcType.getDimSize(dim) << "); only the gather axis " << axis
             << " may differ";
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

namespace {
/// The element type of a descriptor's block, signless: a descriptor may say
/// `si32` where the tensors moved through it are `i32`.
Type signlessElementType(TensorDescType desc) {
  Type element = desc.getElementType();
  if (auto integer = dyn_cast<IntegerType>(element))
    return IntegerType::get(element.getContext(), integer.getWidth());
  return element;
}

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

/// A tensor loaded or stored through `desc` holds its block: same element
/// type, same number of elements (the shapes may differ, e.g. by unit dims).
LogicalResult verifyBlockTensor(Operation *op, TensorDescType desc, RankedTensorType tensor) {
  Type element = signlessElementType(desc);
  if (tensor.getElementType() != element)
    return op->emitOpError("tensor element type ")
           << tensor.getElementType() << " must match the descriptor's, " << element;
  int64_t blockCount = numElements(desc.getShape());
  int64_t tensorCount = numElements(tensor.getShape());
  if (blockCount != tensorCount)
    return op->emitOpError("tensor must have as many elements as the descriptor block (")
           << blockCount << "), got " << tensorCount;
  return success();
}

/// A row gather or scatter moves `rows` (N x M) of `desc`, a block of one row
/// of M, at the N row offsets `xOffsets`. `what` names `rows` in diagnostics.
LogicalResult verifyRowAccess(Operation *op, TensorDescType desc, RankedTensorType rows,
                              RankedTensorType xOffsets, StringRef what) {
  ArrayRef<int64_t> block = desc.getShape();
  if (block.size() != 2)
    return op->emitOpError("the descriptor block must be 2-D, got rank ") << block.size();
  if (block[0] != 1)
    return op->emitOpError("the descriptor block must have exactly one row, got ") << block[0];
  if (xOffsets.getRank() != 1)
    return op->emitOpError("x_offsets must be 1-D, got rank ") << xOffsets.getRank();
  if (rows.getRank() != 2)
    return op->emitOpError("the ") << what << " must be 2-D, got rank " << rows.getRank();
  if (rows.getDimSize(0) < 8)
    return op->emitOpError("the ") << what << " must have at least 8 rows, got "
                                   << rows.getDimSize(0);
  Type element = rows.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() > 32)
    return op->emitOpError("the ") << what << " must have elements of at most 32 bits, got "
                                   << element;
  // Rows are moved 32 bytes at a time at least.
  int64_t minColumns = 32 / element.getIntOrFloatBitWidth() * 8;
  if (rows.getDimSize(1) < minColumns)
    return op->emitOpError("the ") << what << " must have at least " << minColumns
                                   << " columns of " << element << ", got " << rows.getDimSize(1);
  if (rows.getDimSize(0) != xOffsets.getDimSize(0))
    return op->emitOpError("the ") << what << " must have one row per x offset ("
                                   << xOffsets.getDimSize(0) << "), got " << rows.getDimSize(0);
  if (rows.getDimSize(1) != block[1])
    return op->emitOpError("the ") << what << " must have the " << block[1]
                                   << " columns of the descriptor block, got "
                                   << rows.getDimSize(1);
  Type blockElement = signlessElementType(desc);
  if (element != blockElement)
    return op->emitOpError("the ") << what << " element type " << element
                                   << " must match the descriptor's, " << blockElement;
  return success();
}
} // namespace

LogicalResult DescriptorLoadOp::verify() {
  return verifyBlockTensor(*this, getDesc().getType(), getResult().getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyBlockTensor(*this, getDesc().getType(), getSrc().getType());
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyBlockTensor(*this, getDesc().getType(), getSrc().getType());
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyRowAccess(*this, getDesc().getType(), getResult().getType(),
                         getXOffsets().getType(), "result");
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyRowAccess(*this, getDesc().getType(), getSrc().getType(),
                         getXOffsets().getType(), "source");
}
