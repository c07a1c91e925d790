//===- CombinerVerifiers.cpp - verifiers of tt.reduce and tt.scan ---------===//
//
// Both ops combine N tensors of one shape along `axis` with a region that
// takes two element values per tensor and returns one per tensor. A scan
// returns tensors of its operands' types; a reduce drops the axis (down to a
// scalar for 1-D operands). These are the rules triton 3.9 checks.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace tritium::tt;

namespace {
Type elementTypeOf(Value value) { return cast<RankedTensorType>(value.getType()).getElementType(); }

/// The checks reduce and scan share: operands of one shape (and encoding),
/// one result per operand with the operand's element type, an axis within
/// the rank, and a combiner taking two element values per operand.
template <typename OpTy> LogicalResult verifyCombiningOp(OpTy op) {
  auto srcs = op.getSrcs();
  if (srcs.empty())
    return op.emitOpError("needs at least one operand");
  if (op->getNumResults() != srcs.size())
    return op.emitOpError("must have one result per operand, got ")
           << op->getNumResults() << " results for " << srcs.size() << " operands";
  auto first = cast<RankedTensorType>(srcs[0].getType());
  int axis = op.getAxis();
  if (axis < 0 || axis >= first.getRank())
    return op.emitOpError("axis ") << axis << " is out of range";
  for (unsigned i = 1; i < srcs.size(); ++i) {
    auto type = cast<RankedTensorType>(srcs[i].getType());
    if (type.getShape() != first.getShape())
      return op.emitOpError("all operands must have the same shape");
    if (type.getEncoding() && first.getEncoding() && type.getEncoding() != first.getEncoding())
      return op.emitOpError("all operands must have the same encoding");
  }
  for (unsigned i = 0; i < srcs.size(); ++i)
    if (getElementTypeOrSelf(op->getResult(i).getType()) != elementTypeOf(srcs[i]))
      return op.emitOpError("result #") << i << " must have the element type of operand #" << i
                                        << ", " << elementTypeOf(srcs[i]);

  Block &body = op.getCombineOp().front();
  if (body.getNumArguments() != 2 * srcs.size())
    return op.emitOpError("the combiner takes two arguments per operand");
  for (unsigned i = 0; i < srcs.size(); ++i) {
    Type element = elementTypeOf(srcs[i]);
    if (body.getArgument(i).getType() != element ||
        body.getArgument(i + srcs.size()).getType() != element)
      return op.emitOpError("combiner argument types must match the operand element types");
  }
  return success();
}

/// The combiner ends with `ReturnOpTy` and returns one element value per operand.
template <typename ReturnOpTy, typename OpTy> LogicalResult verifyCombinerResults(OpTy op) {
  auto srcs = op.getSrcs();
  Operation *terminator = op.getCombineOp().front().getTerminator();
  if (!isa<ReturnOpTy>(terminator))
    return op.emitOpError("the combiner must end with '")
           << ReturnOpTy::getOperationName() << "'";
  if (terminator->getNumOperands() != srcs.size())
    return op.emitOpError("the combiner must return one value per operand (")
           << srcs.size() << "), got " << terminator->getNumOperands();
  for (unsigned i = 0; i < srcs.size(); ++i) {
    Type returned = terminator->getOperand(i).getType(), element = elementTypeOf(srcs[i]);
    if (returned != element)
      return op.emitOpError("the combiner returns ")
             << returned << " as value #" << i << ", expected the element type " << element;
  }
  return success();
}
} // namespace

LogicalResult ReduceOp::verify() {
  if (failed(verifyCombiningOp(*this)))
    return failure();
  // Each result is its operand without the reduced axis: a scalar for 1-D operands.
  unsigned axis = getAxis();
  for (unsigned i = 0; i < getSrcs().size(); ++i) {
    auto srcType = cast<RankedTensorType>(getSrcs()[i].getType());
    Type resultType = getResult()[i].getType();
    if (srcType.getRank() == 1) {
      if (isa<ShapedType>(resultType))
        return emitOpError("result #") << i << " must be a scalar, since operand #" << i
                                       << " is 1-D";
      continue;
    }
    SmallVector<int64_t> expected(srcType.getShape());
    expected.erase(expected.begin() + axis);
    auto resultTensor = dyn_cast<RankedTensorType>(resultType);
    if (!resultTensor || resultTensor.getShape() != ArrayRef<int64_t>(expected))
      return emitOpError("result #") << i << " must have the shape of operand #" << i
                                     << " without dimension " << axis;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() { return verifyCombinerResults<ReduceReturnOp>(*this); }

LogicalResult ScanOp::verify() {
  if (failed(verifyCombiningOp(*this)))
    return failure();
  for (unsigned i = 0; i < getSrcs().size(); ++i)
    if (getResult()[i].getType() != getSrcs()[i].getType())
      return emitOpError("result #") << i << " must have the type of operand #" << i << ", "
                                     << getSrcs()[i].getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() { return verifyCombinerResults<ScanReturnOp>(*this); }
