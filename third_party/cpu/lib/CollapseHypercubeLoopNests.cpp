//===- CollapseHypercubeLoopNests.cpp - fewer, longer loops for high-rank ops -===//
//
// Triton's sort, topk and flip reshape a tile into a hypercube: a tile of 1024 elements becomes
// a tensor<2x2x2x2x2x2x2x2x2x2xf32>, and every compare-and-swap stage (55 of them for 1024
// elements) is a handful of linalg ops over that shape. Lowered as they are, each op is a nest
// of ten loops of two iterations, and LLVM's loop passes (induction variables, rotation, idiom
// recognition, deletion) run on hundreds of nests: ~9 s of a 10 s compile. The data does not
// need the ten dimensions: a stage along axis k reads its operands in the order of the tile,
// so the dimensions on either side of k (and of the axis its flip pattern varies along) merge
// into loops of 2^j iterations, which the vectorizer takes.
//
// Two adjacent loop dimensions merge when they have the same iterator type and every indexing
// map either has neither or has both as plain, adjacent results in the same order. A dimension
// that appears in a compound expression or that the body reads through `linalg.index` stays
// alone, so the collapsed op computes exactly what the original did. Operands are collapsed
// with `tensor.collapse_shape` and results expanded back with `tensor.expand_shape`: views of
// contiguous buffers once bufferized, and folded away between neighbours that merge alike.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_COLLAPSEHYPERCUBELOOPNESTS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Ops of rank one have nothing to merge. Ordinary 2-D and 3-D tiles are merged too where every
/// map holds their dimensions together (pure elementwise ops: one loop instead of a nest);
/// reductions, broadcasts and transposes keep the dimensions their maps tell apart, and
/// contractions are left whole for the matmul passes.
constexpr unsigned kMinimumRank = 2;

/// Dimensions that every map holds only as plain results, at most once, and that the body does
/// not read through linalg.index: the ones that may merge with a neighbour.
SmallVector<bool> mergeableDimensions(linalg::GenericOp op) {
  unsigned rank = op.getNumLoops();
  SmallVector<bool> mergeable(rank, true);
  for (AffineMap map : op.getIndexingMapsArray()) {
    SmallVector<unsigned> uses(rank, 0);
    for (AffineExpr result : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(result)) {
        if (++uses[dim.getPosition()] > 1)
          mergeable[dim.getPosition()] = false;
        continue;
      }
      result.walk([&](AffineExpr sub) {
        if (auto dim = dyn_cast<AffineDimExpr>(sub))
          mergeable[dim.getPosition()] = false;
      });
    }
  }
  op.getBody()->walk([&](linalg::IndexOp index) { mergeable[index.getDim()] = false; });
  return mergeable;
}

/// Whether loop dimensions `d` and `d + 1` iterate as one: same iterator type, and in every map
/// either both absent or `d + 1` right after `d`.
bool mergesWithNext(linalg::GenericOp op, ArrayRef<bool> mergeable, unsigned d) {
  if (!mergeable[d] || !mergeable[d + 1] ||
      op.getIteratorTypesArray()[d] != op.getIteratorTypesArray()[d + 1])
    return false;
  MLIRContext *context = op.getContext();
  for (AffineMap map : op.getIndexingMapsArray()) {
    std::optional<unsigned> first = map.getResultPosition(getAffineDimExpr(d, context));
    std::optional<unsigned> second = map.getResultPosition(getAffineDimExpr(d + 1, context));
    if (first.has_value() != second.has_value() || (first && *second != *first + 1))
      return false;
  }
  return true;
}

/// The op rewritten over its merged dimensions, or failure when nothing merges.
LogicalResult collapse(RewriterBase &rewriter, linalg::GenericOp op) {
  unsigned rank = op.getNumLoops();
  SmallVector<bool> mergeable = mergeableDimensions(op);
  // groupOf[d]: the new loop dimension of old dimension d; groups[g]: the old dimensions of g.
  SmallVector<unsigned> groupOf(rank);
  SmallVector<SmallVector<unsigned>> groups;
  for (unsigned d = 0; d < rank; ++d) {
    if (d == 0 || !mergesWithNext(op, mergeable, d - 1))
      groups.emplace_back();
    groups.back().push_back(d);
    groupOf[d] = groups.size() - 1;
  }
  if (groups.size() == rank)
    return failure();

  MLIRContext *context = op.getContext();
  SmallVector<AffineExpr> newDims;
  for (unsigned d = 0; d < rank; ++d)
    newDims.push_back(getAffineDimExpr(groupOf[d], context));

  Location loc = op.getLoc();
  SmallVector<AffineMap> newMaps;
  SmallVector<Value> newOperands;
  SmallVector<SmallVector<ReassociationIndices>> resultReassociations;
  // One view per operand value and grouping: an accumulator updated in place is both an input
  // and the init, and bufferization keeps that in place only if both are the same value (two
  // collapse_shape ops of it look like a read and a write of different tensors: a copy of the
  // accumulator every iteration).
  SmallVector<std::tuple<Value, SmallVector<ReassociationIndices>, Value>> views;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> results;
    SmallVector<ReassociationIndices> reassociation;
    for (auto [position, result] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (dim && groups[groupOf[dim.getPosition()]].front() != dim.getPosition()) {
        // A later dimension of a merged group: its result joins the group's first.
        reassociation.back().push_back(position);
        continue;
      }
      results.push_back(result.replaceDims(newDims));
      reassociation.push_back({static_cast<int64_t>(position)});
    }
    newMaps.push_back(AffineMap::get(groups.size(), 0, results, context));
    Value value = operand.get();
    if (reassociation.size() != map.getNumResults()) {
      auto seen = llvm::find_if(views, [&](const auto &view) {
        return std::get<0>(view) == value && std::get<1>(view) == reassociation;
      });
      if (seen != views.end()) {
        value = std::get<2>(*seen);
      } else {
        Value view = tensor::CollapseShapeOp::create(rewriter, loc, value, reassociation);
        views.emplace_back(value, reassociation, view);
        value = view;
      }
    }
    newOperands.push_back(value);
    if (op.isDpsInit(&operand))
      resultReassociations.push_back(reassociation);
  }

  SmallVector<utils::IteratorType> iteratorTypes;
  for (const SmallVector<unsigned> &group : groups)
    iteratorTypes.push_back(op.getIteratorTypesArray()[group.front()]);
  unsigned numInputs = op.getNumDpsInputs();
  ValueRange operands(newOperands);
  auto collapsed = linalg::GenericOp::create(
      rewriter, loc, ValueRange(operands.drop_front(numInputs)).getTypes(),
      operands.take_front(numInputs), operands.drop_front(numInputs), newMaps, iteratorTypes);
  rewriter.inlineRegionBefore(op.getRegion(), collapsed.getRegion(), collapsed.getRegion().end());
  collapsed.getBody()->walk([&](linalg::IndexOp index) {
    rewriter.modifyOpInPlace(index, [&] { index.setDim(groupOf[index.getDim()]); });
  });

  SmallVector<Value> replacements;
  for (auto [result, original, reassociation] :
       llvm::zip_equal(collapsed.getResults(), op.getResults(), resultReassociations))
    replacements.push_back(
        result.getType() == original.getType()
            ? Value(result)
            : tensor::ExpandShapeOp::create(rewriter, loc, original.getType(), result,
                                            reassociation)
                  .getResult());
  rewriter.replaceOp(op, replacements);
  return success();
}

/// Ops of the hypercube's rank that it may rewrite: tensors of static shape, and no
/// contraction (a batch matmul has rank 4 and its own path).
bool isCandidate(linalg::LinalgOp op) {
  if (op.getNumLoops() < kMinimumRank || !op.hasPureTensorSemantics() ||
      isa<linalg::ContractionOpInterface>(op.getOperation()) ||
      linalg::isaContractionOpInterface(op))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (type ? !type.hasStaticShape() : op.getMatchingIndexingMap(&operand).getNumResults())
      return false;
  }
  return true;
}

struct CollapseHypercubeLoopNestsPass
    : impl::CollapseHypercubeLoopNestsBase<CollapseHypercubeLoopNestsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isCandidate(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      rewriter.setInsertionPoint(generic);
      (void)collapse(rewriter, generic);
    }
  }
};

} // namespace
} // namespace tritium::cpu
