//===- FoldPairXorSumsIntoReversals.cpp - a ^ xor_sum(a, k) over two = swap ===//
//
// Triton's sort, topk and flip find each element's partner along an axis of size two with
// integer arithmetic: `a ^ xor_sum(a, axis=k, keep_dims=True)`. Along two elements the xor
// sum is `a[0] ^ a[1]`, so the expression is `a` with its two halves along `k` exchanged.
// Lowered as written it is a reduction into a temporary, a broadcast and an xor per element:
// two passes over the tile where one read at the mirrored index suffices, and a reduction
// that keeps the compare-and-swap stage it belongs to from fusing into one loop nest.
//
// The pattern matches `arith.xori %a, %b` on tensors where `%b` broadcasts, along `k`, the
// `linalg.reduce` (by `arith.xori`, from zero) of the same `%a` over dimension `k` of size 2,
// and replaces it with a `linalg.generic` that reads `%a` through the map `d_k -> 1 - d_k`.
//
//===----------------------------------------------------------------------===//

#include "PairAxisMatchers.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_FOLDPAIRXORSUMSINTOREVERSALS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The dimension `k` along which `sum` is the xor of `source` over two elements, from zero.
std::optional<int64_t> pairXorDimension(linalg::ReduceOp sum, Value source) {
  if (sum.getInputs().size() != 1 || sum.getInputs()[0] != source ||
      sum.getDimensions().size() != 1 || !isZeroTensor(sum.getInits()[0]))
    return std::nullopt;
  int64_t k = sum.getDimensions()[0];
  if (cast<RankedTensorType>(source.getType()).getDimSize(k) != 2)
    return std::nullopt;
  Block &body = sum.getCombiner().front();
  if (body.getOperations().size() != 2)
    return std::nullopt;
  auto xorOp = dyn_cast<arith::XOrIOp>(body.front());
  if (!xorOp || !llvm::is_contained(xorOp->getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(xorOp->getOperands(), body.getArgument(1)) ||
      body.getTerminator()->getOperand(0) != xorOp.getResult())
    return std::nullopt;
  return k;
}

/// The reduction that `value` broadcasts back along the dimension it reduced, and that
/// dimension: `value` is a generic that only yields its one input, read through the identity
/// except for a zero at `k`, and that input is the reduction with a unit dimension at `k`.
std::optional<std::pair<linalg::ReduceOp, int64_t>> broadcastPairXor(Value value, Value source) {
  auto broadcast = value.getDefiningOp<linalg::GenericOp>();
  if (!broadcast || !isPlainCopy(broadcast) ||
      !isa<RankedTensorType>(broadcast.getDpsInputs()[0].getType()))
    return std::nullopt;
  SmallVector<AffineMap> maps = broadcast.getIndexingMapsArray();
  if (!maps[1].isIdentity())
    return std::nullopt;
  auto expand = broadcast.getDpsInputs()[0].getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand)
    return std::nullopt;
  auto sum = expand.getSrc().getDefiningOp<linalg::ReduceOp>();
  if (!sum)
    return std::nullopt;
  std::optional<int64_t> k = pairXorDimension(sum, source);
  if (!k)
    return std::nullopt;
  // The expanded shape is the source's with a one at k, and the broadcast reads it with a
  // zero at k and the loop dimension everywhere else.
  auto shape = llvm::to_vector(cast<RankedTensorType>(source.getType()).getShape());
  shape[*k] = 1;
  if (expand.getResultType().getShape() != ArrayRef<int64_t>(shape))
    return std::nullopt;
  AffineMap read = maps[0];
  MLIRContext *context = value.getContext();
  for (auto [position, result] : llvm::enumerate(read.getResults())) {
    AffineExpr expected = static_cast<int64_t>(position) == *k
                              ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(position, context);
    if (result != expected)
      return std::nullopt;
  }
  return std::make_pair(sum, *k);
}

struct PairXorSumToReversal : OpRewritePattern<arith::XOrIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::XOrIOp op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape())
      return failure();
    for (auto [source, other] : {std::pair(op.getLhs(), op.getRhs()),
                                 std::pair(op.getRhs(), op.getLhs())}) {
      std::optional<std::pair<linalg::ReduceOp, int64_t>> match = broadcastPairXor(other, source);
      if (!match)
        continue;
      int64_t k = match->second;
      MLIRContext *context = op.getContext();
      unsigned rank = type.getRank();
      SmallVector<AffineExpr> mirrored;
      for (unsigned d = 0; d < rank; ++d)
        mirrored.push_back(d == k ? 1 - getAffineDimExpr(d, context)
                                  : getAffineDimExpr(d, context));
      SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, mirrored, context),
                                     AffineMap::getMultiDimIdentityMap(rank, context)};
      Location loc = op.getLoc();
      Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
      SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
      auto swapped = linalg::GenericOp::create(
          rewriter, loc, TypeRange{type}, ValueRange{source}, ValueRange{init}, maps, parallel,
          [](OpBuilder &b, Location loc, ValueRange args) {
            linalg::YieldOp::create(b, loc, args[0]);
          });
      rewriter.replaceOp(op, swapped.getResults());
      return success();
    }
    return failure();
  }
};

struct FoldPairXorSumsIntoReversalsPass
    : impl::FoldPairXorSumsIntoReversalsBase<FoldPairXorSumsIntoReversalsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PairXorSumToReversal>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
