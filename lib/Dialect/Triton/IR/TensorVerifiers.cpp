//===- TensorVerifiers.cpp - checks on the tensors of every op ------------===//
//
// Two rules triton applies to every op of its dialects, whatever the op:
// tensors have at most 2^20 elements and a power-of-two number of them (tt
// ops), and the encoding of each tensor fits the op and its module (tt and
// ttg ops). The encoding rules belong to the dialect that defines encodings,
// which implements LayoutVerifierInterface; this file only finds the tensors.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

using namespace mlir;

namespace {
/// The most elements triton lets a tensor have.
constexpr int64_t kMaxTensorElements = int64_t(1) << 20;

using TensorCheck =
    function_ref<LogicalResult(RankedTensorType, function_ref<InFlightDiagnostic()>)>;

/// Runs `check` on each ranked tensor among the operands and results of `op`,
/// with a function starting a diagnostic that names the value.
LogicalResult forEachTensor(Operation *op, TensorCheck check) {
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
    if (type && failed(check(type, [&] { return op->emitOpError("operand #") << i << " "; })))
      return failure();
  }
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    auto type = dyn_cast<RankedTensorType>(op->getResult(i).getType());
    if (type && failed(check(type, [&] { return op->emitOpError("result #") << i << " "; })))
      return failure();
  }
  return success();
}
} // namespace

namespace tritium::tt::impl {

LogicalResult verifyTensorSizes(Operation *op) {
  return forEachTensor(op, [](RankedTensorType type,
                              function_ref<InFlightDiagnostic()> emitError) -> LogicalResult {
    if (!type.hasStaticShape())
      return success();
    int64_t count = type.getNumElements();
    if (count > kMaxTensorElements)
      return emitError() << "has " << count << " elements, more than the " << kMaxTensorElements
                         << " a tensor may have";
    if ((count & (count - 1)) != 0)
      return emitError() << "has " << count
                         << " elements; the number of elements of a tensor must be a power of two";
    return success();
  });
}

LogicalResult verifyTensorLayouts(Operation *op) {
  return forEachTensor(op, [op](RankedTensorType type,
                                function_ref<InFlightDiagnostic()> emitError) -> LogicalResult {
    Attribute layout = type.getEncoding();
    if (!layout)
      return success();
    auto *verifier = layout.getDialect().getRegisteredInterface<LayoutVerifierInterface>();
    if (!verifier)
      return success();
    return verifier->verifyTensorLayout(layout, type, op,
                                        [&] { return emitError() << "has an invalid layout: "; });
  });
}

} // namespace tritium::tt::impl
