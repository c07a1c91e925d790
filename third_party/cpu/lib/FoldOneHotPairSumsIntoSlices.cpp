//===- FoldOneHotPairSumsIntoSlices.cpp - sum(a * [1, 0]) over two = a[0] -===//
//
// Inductor's sort (`triton_helpers.sort_with_index`) picks the left and the right element of
// each pair along an axis of two as `tl.sum(a * mask, axis)`, with `mask` the one-hot
// `1 - tl.arange(0, 2)` or `tl.arange(0, 2)` broadcast along the other axes. Each such sum is
// a multiply and a reduction into a temporary, four of them per compare-and-swap stage: they
// keep a stage from fusing and, over the 21 stages of a 64-element sort, give LLVM hundreds of
// loop nests to optimize. The sum is the element itself, read at the mask's one index.
//
// The pattern matches a `linalg.reduce` by `arith.addi` from zero, over one dimension `k` of
// size 2, of `arith.muli %a, %m` where `%m` broadcasts a tensor whose only non-unit dimension
// is `k` and whose two values evaluate (through `linalg.index`-only generics, reshapes,
// integer casts and arithmetic with splat constants) to one 1 and one 0. It becomes a
// `linalg.generic` that reads `%a` with the constant index of the 1 at `k`.
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
#include "llvm/ADT/TypeSwitch.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_FOLDONEHOTPAIRSUMSINTOSLICES
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The one dimension of size 2 of a tensor whose other dimensions are all 1.
std::optional<int64_t> pairDimension(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() != 2)
    return std::nullopt;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (size == 2)
      return d;
  return std::nullopt;
}

/// The element at position `p` (0 or 1) of a two-element tensor, when it is a compile-time
/// integer: a splat constant, `arange(0, 2)` (a generic that yields its `linalg.index`),
/// a reshape of one, an integer cast or arithmetic on such values.
std::optional<int64_t> pairElement(Value value, int64_t p, unsigned depth = 0) {
  if (depth > 8 || !pairDimension(value))
    return std::nullopt;
  APInt splat;
  if (matchPattern(value, m_ConstantInt(&splat)))
    return splat.getSExtValue();
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto reshape = dyn_cast<tensor::ExpandShapeOp>(op))
    return pairElement(reshape.getSrc(), p, depth + 1);
  if (auto reshape = dyn_cast<tensor::CollapseShapeOp>(op))
    return pairElement(reshape.getSrc(), p, depth + 1);
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op))
    return pairElement(op->getOperand(0), p, depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::XOrIOp, arith::AndIOp, arith::OrIOp>(
          op)) {
    std::optional<int64_t> lhs = pairElement(op->getOperand(0), p, depth + 1);
    std::optional<int64_t> rhs = pairElement(op->getOperand(1), p, depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    return llvm::TypeSwitch<Operation *, int64_t>(op)
        .Case([&](arith::AddIOp) { return *lhs + *rhs; })
        .Case([&](arith::SubIOp) { return *lhs - *rhs; })
        .Case([&](arith::MulIOp) { return *lhs * *rhs; })
        .Case([&](arith::XOrIOp) { return *lhs ^ *rhs; })
        .Case([&](arith::AndIOp) { return *lhs & *rhs; })
        .Default([&](Operation *) { return *lhs | *rhs; });
  }
  if (auto arange = dyn_cast<linalg::GenericOp>(op)) {
    // yield index_cast(linalg.index d), over the tensor's pair dimension d.
    Block *body = arange.getBody();
    if (arange.getNumDpsInputs() != 0 || body->getOperations().size() != 3)
      return std::nullopt;
    auto cast = body->getTerminator()->getOperand(0).getDefiningOp<arith::IndexCastOp>();
    auto index = cast ? cast.getIn().getDefiningOp<linalg::IndexOp>() : nullptr;
    if (!index || static_cast<int64_t>(index.getDim()) != *pairDimension(value) ||
        !arange.getIndexingMapsArray()[0].isIdentity())
      return std::nullopt;
    return p;
  }
  return std::nullopt;
}

/// The index (0 or 1) that the mask `value` selects along dimension `k` of the product: it
/// broadcasts a two-element tensor along every dimension but `k`, whose elements are 1 and 0.
std::optional<int64_t> oneHotIndex(Value value, int64_t k) {
  auto broadcast = value.getDefiningOp<linalg::GenericOp>();
  if (!broadcast || !isPlainCopy(broadcast))
    return std::nullopt;
  Value mask = broadcast.getDpsInputs()[0];
  if (pairDimension(mask) != k || !broadcast.getIndexingMapsArray()[1].isIdentity())
    return std::nullopt;
  AffineMap read = broadcast.getIndexingMapsArray()[0];
  MLIRContext *context = value.getContext();
  for (auto [position, result] : llvm::enumerate(read.getResults()))
    if (result != (static_cast<int64_t>(position) == k ? getAffineDimExpr(k, context)
                                                       : getAffineConstantExpr(0, context)))
      return std::nullopt;
  std::optional<int64_t> first = pairElement(mask, 0), second = pairElement(mask, 1);
  if (!first || !second)
    return std::nullopt;
  if (*first == 1 && *second == 0)
    return 0;
  if (*first == 0 && *second == 1)
    return 1;
  return std::nullopt;
}

struct OneHotPairSumToSlice : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::ReduceOp sum, PatternRewriter &rewriter) const override {
    if (sum.getInputs().size() != 1 || sum.getDimensions().size() != 1 ||
        !isZeroTensor(sum.getInits()[0]))
      return failure();
    int64_t k = sum.getDimensions()[0];
    Value product = sum.getInputs()[0];
    auto type = cast<RankedTensorType>(product.getType());
    if (!type.hasStaticShape() || type.getDimSize(k) != 2 ||
        !isa<IntegerType>(type.getElementType()))
      return failure();
    Block &combiner = sum.getCombiner().front();
    if (combiner.getOperations().size() != 2 || !isa<arith::AddIOp>(combiner.front()))
      return failure();
    auto multiply = product.getDefiningOp<arith::MulIOp>();
    if (!multiply)
      return failure();
    for (auto [source, mask] : {std::pair(multiply.getLhs(), multiply.getRhs()),
                                std::pair(multiply.getRhs(), multiply.getLhs())}) {
      std::optional<int64_t> j = oneHotIndex(mask, k);
      if (!j)
        continue;
      // result[d...] = source[d_0 .. d_{k-1}, j, d_k ...]: a read at the constant index.
      MLIRContext *context = sum.getContext();
      unsigned rank = type.getRank();
      SmallVector<AffineExpr> read;
      for (unsigned d = 0, loop = 0; d < rank; ++d)
        read.push_back(static_cast<int64_t>(d) == k ? getAffineConstantExpr(*j, context)
                                                    : getAffineDimExpr(loop++, context));
      auto resultType = cast<RankedTensorType>(sum.getResult(0).getType());
      SmallVector<AffineMap> maps = {AffineMap::get(rank - 1, 0, read, context),
                                     AffineMap::getMultiDimIdentityMap(rank - 1, context)};
      Location loc = sum.getLoc();
      Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                           resultType.getElementType());
      SmallVector<utils::IteratorType> parallel(rank - 1, utils::IteratorType::parallel);
      auto slice = linalg::GenericOp::create(
          rewriter, loc, TypeRange{resultType}, ValueRange{source}, ValueRange{init}, maps,
          parallel, [](OpBuilder &b, Location loc, ValueRange args) {
            linalg::YieldOp::create(b, loc, args[0]);
          });
      rewriter.replaceOp(sum, slice.getResults());
      return success();
    }
    return failure();
  }
};

/// The picked element is broadcast back along the pair's axis (`[:, None, :]`): a yield-only
/// generic reading, with a zero at `k`, the slice expanded with a unit dimension at `k`. It
/// becomes one read of the source, so no slice is materialized in between.
struct BroadcastOfSliceToRead : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp broadcast,
                                PatternRewriter &rewriter) const override {
    if (!isPlainCopy(broadcast))
      return failure();
    auto expand = broadcast.getDpsInputs()[0].getDefiningOp<tensor::ExpandShapeOp>();
    auto slice = expand ? expand.getSrc().getDefiningOp<linalg::GenericOp>() : nullptr;
    if (!slice || !isPlainCopy(slice) || !slice.getIndexingMapsArray()[1].isIdentity() ||
        !broadcast.getIndexingMapsArray()[1].isIdentity())
      return failure();
    // The broadcast reads the expanded slice through the identity but for one zero, at k,
    // where the expansion put its only new (unit) dimension.
    AffineMap read = broadcast.getIndexingMapsArray()[0];
    auto sliceType = cast<RankedTensorType>(slice.getResult(0).getType());
    auto expandedType = expand.getResultType();
    if (expandedType.getRank() != sliceType.getRank() + 1 || read.getNumResults() != expandedType.getRank())
      return failure();
    MLIRContext *context = broadcast.getContext();
    std::optional<unsigned> k;
    for (auto [position, result] : llvm::enumerate(read.getResults())) {
      if (result == getAffineDimExpr(position, context))
        continue;
      if (k || result != getAffineConstantExpr(0, context) || expandedType.getDimSize(position) != 1)
        return failure();
      k = position;
    }
    if (!k)
      return failure();
    SmallVector<int64_t> withoutK = llvm::to_vector(expandedType.getShape());
    withoutK.erase(withoutK.begin() + *k);
    if (ArrayRef<int64_t>(withoutK) != sliceType.getShape())
      return failure();
    // The slice's loop i is the broadcast's loop i, or i + 1 from k on.
    SmallVector<AffineExpr> loops;
    for (unsigned d = 0, rank = read.getNumDims(); d < rank; ++d)
      if (d != *k)
        loops.push_back(getAffineDimExpr(d, context));
    AffineMap sourceRead = slice.getIndexingMapsArray()[0].replaceDimsAndSymbols(
        loops, {}, read.getNumDims(), 0);
    auto fused = linalg::GenericOp::create(
        rewriter, broadcast.getLoc(), broadcast.getResultTypes(), slice.getDpsInputs(),
        broadcast.getDpsInits(), {sourceRead, broadcast.getIndexingMapsArray()[1]},
        broadcast.getIteratorTypesArray(), [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    rewriter.replaceOp(broadcast, fused.getResults());
    return success();
  }
};

struct FoldOneHotPairSumsIntoSlicesPass
    : impl::FoldOneHotPairSumsIntoSlicesBase<FoldOneHotPairSumsIntoSlicesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OneHotPairSumToSlice, BroadcastOfSliceToRead>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
