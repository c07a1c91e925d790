//===- UnitDimReshapesAsExpandDims.cpp - reshapes that insert a unit dim ---===//
//
// `tt.reshape` of a tensor<128xi64> to tensor<128x1xi64> is `tt.expand_dims` at axis 1: the
// elements keep their order and gain a unit dimension. Triton's rewrite of tensor descriptors
// to pointers builds a block's offsets that way (`desc.load([m, k])` becomes the offsets of
// rows and columns reshaped to [M, 1] and [1, K]), while the analyses of addresses below
// (`tl.load` of `base + rows[:, None] * stride + cols[None, :]`: tile reads in place, streamed
// loads, wrapped ranges) follow `expand_dims`. A reshape they did not follow made every load
// of a persistent matmul over descriptors an element loop over a materialized offset tensor
// (bf16 1024^3, one thread: ~145 GFLOP/s against ~520 for the same product through pointers).
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include <optional>

namespace tritium {
#define GEN_PASS_DEF_UNITDIMRESHAPESASEXPANDDIMS
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// The axis at which `result` is `source` with one dimension of size 1 inserted, if it is.
std::optional<unsigned> insertedUnitAxis(ArrayRef<int64_t> source, ArrayRef<int64_t> result) {
  if (result.size() != source.size() + 1)
    return std::nullopt;
  for (unsigned axis = 0; axis < result.size(); ++axis) {
    if (result[axis] != 1)
      continue;
    bool rest = true;
    for (unsigned i = 0; i < source.size() && rest; ++i)
      rest = source[i] == result[i < axis ? i : i + 1];
    if (rest)
      return axis;
  }
  return std::nullopt;
}

struct UnitDimReshapesAsExpandDimsPass
    : impl::UnitDimReshapesAsExpandDimsBase<UnitDimReshapesAsExpandDimsPass> {
  void runOnOperation() override {
    SmallVector<tt::ReshapeOp> reshapes;
    getOperation()->walk([&](tt::ReshapeOp op) { reshapes.push_back(op); });
    for (tt::ReshapeOp op : reshapes) {
      auto source = cast<RankedTensorType>(op.getSrc().getType());
      auto result = cast<RankedTensorType>(op.getType());
      std::optional<unsigned> axis = insertedUnitAxis(source.getShape(), result.getShape());
      if (!axis)
        continue;
      OpBuilder b(op);
      auto expanded = tt::ExpandDimsOp::create(b, op.getLoc(), result, op.getSrc(),
                                               b.getI32IntegerAttr(*axis));
      op.replaceAllUsesWith(expanded.getResult());
      op.erase();
    }
  }
};

} // namespace
} // namespace tritium
