//===- Canonicalization.cpp - folders and canonicalization of `tt` ops ----===//
//
// The folds and rewrites triton 3.9 registers on its `tt` ops, so that
// `-canonicalize` leaves tritium's IR in the form triton's leaves triton's:
// constant masks disappear from loads and stores, shape ops fold into splats
// and constants or merge with the shape op before them, pointer round trips
// through integers become pointer arithmetic. Constants come out as
// arith.constant (TTDialect::materializeConstant).
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace tritium::tt;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// A splat constant of `type` if `attr` is a scalar or splat constant.
static Attribute splatConstant(Attribute attr, Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!attr || !shaped || isa<PointerType>(shaped.getElementType()))
    return {};
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    return SplatElementsAttr::get(shaped, splat.getSplatValue<Attribute>());
  if (isa<IntegerAttr, FloatAttr>(attr))
    return SplatElementsAttr::get(shaped, attr);
  return {};
}

/// The constant `attr` seen with `type`, for shape ops that keep the elements
/// in row-major order (expand_dims, reshape): any dense constant, splat or not.
static Attribute reshapedConstant(Attribute attr, Type type) {
  if (Attribute splat = splatConstant(attr, type))
    return splat;
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!dense || !shaped || dense.getType().getElementType() != shaped.getElementType() ||
      dense.getType().getNumElements() != shaped.getNumElements())
    return {};
  return dense.reshape(shaped);
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  return splatConstant(adaptor.getSrc(), getType());
}

/// make_range of one element is the constant `start`.
OpFoldResult MakeRangeOp::fold(FoldAdaptor) {
  if (getEndAttr().getInt() - getStartAttr().getInt() != 1)
    return {};
  return splatConstant(getStartAttr(), getType());
}

/// Zero converts exactly to every float format, whatever the rounding mode, so
/// triton folds conversions of +0.0 and -0.0 (and nothing else). -0.0 becomes
/// +0.0 in the formats that have no negative zero (the FNUZ ones).
OpFoldResult FpToFpOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  bool negative;
  if (matchPattern(adaptor.getSrc(), m_PosZeroFloat()))
    negative = false;
  else if (matchPattern(adaptor.getSrc(), m_NegZeroFloat()))
    negative = true;
  else
    return {};
  auto elementType = cast<FloatType>(getElementTypeOrSelf(getType()));
  Attribute zero =
      FloatAttr::get(elementType, APFloat::getZero(elementType.getFloatSemantics(), negative));
  if (isa<RankedTensorType>(getType()))
    return splatConstant(zero, getType());
  return zero;
}

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// Shape ops: splats stay splats, constants fold, identities disappear
//===----------------------------------------------------------------------===//

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return reshapedConstant(adaptor.getSrc(), getType());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapedConstant(adaptor.getSrc(), getType());
}

/// Only splat constants fold: broadcasting another constant would copy its data.
OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatConstant(adaptor.getSrc(), getType());
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  // With encodings, an identity order may still change the layout; that is
  // not a no-op, so the types must match as well.
  if (llvm::equal(getOrder(), llvm::seq<int32_t>(0, getOrder().size())) &&
      getSrc().getType() == getType())
    return getSrc();
  // trans(trans(x)) is one trans of x: result dimension i is dimension
  // order[i] of the inner result, which is dimension inner[order[i]] of x.
  // Updated in place, as triton does; the composed order may be the identity,
  // which the next fold removes.
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t dim : getOrder())
      composed.push_back(inner.getOrder()[dim]);
    setOrder(composed);
    getSrcMutable().set(inner.getSrc());
    return getResult();
  }
  return splatConstant(adaptor.getSrc(), getType());
}

/// join(split(x)) is x when the halves are joined back in their order.
OpFoldResult JoinOp::fold(FoldAdaptor) {
  auto split = getLhs().getDefiningOp<SplitOp>();
  if (!split || getLhs() != split.getOutLHS() || getRhs() != split.getOutRHS() ||
      split.getSrc().getType() != getType())
    return {};
  return split.getSrc();
}

/// split(join(a, b)) is a, b.
LogicalResult SplitOp::fold(FoldAdaptor, SmallVectorImpl<OpFoldResult> &results) {
  auto join = getSrc().getDefiningOp<JoinOp>();
  if (!join || join.getLhs().getType() != getOutLHS().getType() ||
      join.getRhs().getType() != getOutRHS().getType())
    return failure();
  results.push_back(join.getLhs());
  results.push_back(join.getRhs());
  return success();
}

namespace {
/// efficient_layout asks that a reshape stay as written (it pins a layout on
/// GPUs), so triton rewrites no reshape that carries it.
bool keepsItsLayout(Operation *op) {
  auto reshape = dyn_cast<ReshapeOp>(op);
  return reshape && reshape.getEfficientLayout();
}

/// shape-op(splat x) -> splat x: every element is still x.
template <typename OpTy>
struct SplatThroughShapeOp : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat || keepsItsLayout(op))
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast x) -> broadcast x: the dimensions the inner broadcast
/// widened are size 1 in x, so one broadcast reaches the outer shape.
struct BroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

/// expand_dims(broadcast x) -> broadcast(expand_dims x). Alone this changes
/// nothing, but it moves broadcasts outward where they merge:
/// broadcast(expand_dims(broadcast x)) ends as broadcast(expand_dims x).
/// Triton infers the encoding of the new expand_dims through the layout
/// dialect; tritium's tt knows no layouts, so tensors with an encoding are
/// left as they are.
struct ExpandDimsOfBroadcast : OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op, PatternRewriter &rewriter) const override {
    auto broadcast = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!broadcast)
      return failure();
    RankedTensorType srcType = broadcast.getSrc().getType();
    if (srcType.getEncoding() || op.getType().getEncoding())
      return failure();
    SmallVector<int64_t> shape(srcType.getShape());
    shape.insert(shape.begin() + op.getAxis(), 1);
    auto expandedType = RankedTensorType::get(shape, srcType.getElementType());
    Value expanded = ExpandDimsOp::create(rewriter, op.getLoc(), expandedType,
                                          broadcast.getSrc(), op.getAxis());
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), expanded);
    return success();
  }
};

/// reshape(reshape x) -> reshape x; the elements may be reordered if either
/// reshape allowed it.
struct ReshapeOfReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner || keepsItsLayout(op))
      return failure();
    bool allowReorder = op.getAllowReorder() || inner.getAllowReorder();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getSrc(), allowReorder);
    return success();
  }
};

/// reshape(expand_dims x) back to the type of x is x. Triton keeps the pair
/// when the reshape may reorder elements.
struct ReshapeOfExpandDims : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto expand = op.getSrc().getDefiningOp<ExpandDimsOp>();
    if (!expand || keepsItsLayout(op) || op.getAllowReorder() ||
        expand.getSrc().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, expand.getSrc());
    return success();
  }
};
} // namespace

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<SplatThroughShapeOp<ExpandDimsOp>, ExpandDimsOfBroadcast>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<SplatThroughShapeOp<ReshapeOp>, ReshapeOfReshape, ReshapeOfExpandDims>(context);
}

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<SplatThroughShapeOp<BroadcastOp>, BroadcastOfBroadcast>(context);
}

//===----------------------------------------------------------------------===//
// Loads and stores with a constant mask
//===----------------------------------------------------------------------===//

namespace {
/// A mask that is the constant true, or a splat of it: every lane is accessed.
bool isAllTrue(Value mask) { return mask && matchPattern(mask, m_One()); }

/// A mask that is the constant false, or a splat of it: no lane is accessed.
bool isAllFalse(Value mask) { return mask && matchPattern(mask, m_Zero()); }

/// load(p, all-true, other) -> load(p); load(p, all-false, other) -> other.
/// Without `other`, a load with an all-false mask stays: triton leaves it too
/// (the lanes it would produce are unspecified there).
struct LoadWithConstantMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op, PatternRewriter &rewriter) const override {
    if (isAllTrue(op.getMask())) {
      rewriter.replaceOpWithNewOp<LoadOp>(op, op.getType(), op.getPtr(), /*mask=*/Value(),
                                          /*other=*/Value(), op.getCachePolicyAttr(),
                                          op.getIsVolatile());
      return success();
    }
    Value other = op.getOther();
    if (!isAllFalse(op.getMask()) || !other)
      return failure();
    rewriter.replaceOp(op, other);
    return success();
  }
};

/// A store, plain or atomic, with an all-false mask writes nothing.
template <typename OpTy>
struct EraseStoreWithFalseMask : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    if (!isAllFalse(op.getMask()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// store(p, v, all-true) -> store(p, v). Triton does not drop the mask of an
/// atomic store.
struct DropTrueStoreMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op, PatternRewriter &rewriter) const override {
    if (!isAllTrue(op.getMask()))
      return failure();
    rewriter.replaceOpWithNewOp<StoreOp>(op, op.getPtr(), op.getValue(), /*mask=*/Value(),
                                         op.getCachePolicyAttr(), op.getIgnoreCta());
    return success();
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<LoadWithConstantMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<EraseStoreWithFalseMask<StoreOp>, DropTrueStoreMask>(context);
}

void AtomicStoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                MLIRContext *context) {
  patterns.add<EraseStoreWithFalseMask<AtomicStoreOp>>(context);
}

//===----------------------------------------------------------------------===//
// Pointers rebuilt from integers
//===----------------------------------------------------------------------===//

namespace {
/// The bytes addptr advances per element of `ptrType`, as tritium's lowering
/// counts them (pointers are 8 bytes, i1 takes a byte); 0 for other pointees.
int64_t elementBytes(PointerType ptrType) {
  Type pointee = ptrType.getPointeeType();
  if (isa<PointerType>(pointee))
    return 8;
  if (!pointee.isIntOrFloat())
    return 0;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// int_to_ptr(ptr_to_int p) -> bitcast p: the same address, typed as the
/// result. Unlike triton, pointers in different address spaces are left alone:
/// a bitcast may not cross address spaces (triton's own verifier says so).
struct IntToPtrOfPtrToInt : OpRewritePattern<IntToPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IntToPtrOp op, PatternRewriter &rewriter) const override {
    auto ptrToInt = op.getSrc().getDefiningOp<PtrToIntOp>();
    if (!ptrToInt)
      return failure();
    auto from = cast<PointerType>(getElementTypeOrSelf(ptrToInt.getSrc().getType()));
    auto to = cast<PointerType>(getElementTypeOrSelf(op.getType()));
    if (from.getAddressSpace() != to.getAddressSpace())
      return failure();
    rewriter.replaceOpWithNewOp<BitcastOp>(op, op.getType(), ptrToInt.getSrc());
    return success();
  }
};

/// int_to_ptr(addi(i, c)) -> addptr(int_to_ptr i, c / element size) for a
/// constant byte offset c (the right operand, where arith's canonicalization
/// puts constants) that is a whole number of elements.
struct IntToPtrOfAddConstant : OpRewritePattern<IntToPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IntToPtrOp op, PatternRewriter &rewriter) const override {
    auto add = op.getSrc().getDefiningOp<arith::AddIOp>();
    APInt bytes;
    if (!add || !matchPattern(add.getRhs(), m_ConstantInt(&bytes)))
      return failure();
    int64_t size = elementBytes(cast<PointerType>(getElementTypeOrSelf(op.getType())));
    if (size == 0 || bytes.getSExtValue() % size != 0)
      return failure();
    // The element offset keeps the type (i64) and shape of the byte offset.
    Type offsetType = add.getRhs().getType();
    Attribute elements =
        rewriter.getIntegerAttr(getElementTypeOrSelf(offsetType), bytes.getSExtValue() / size);
    if (isa<RankedTensorType>(offsetType))
      elements = splatConstant(elements, offsetType);
    Value offset = arith::ConstantOp::create(rewriter, op.getLoc(), cast<TypedAttr>(elements));
    Value base = IntToPtrOp::create(rewriter, op.getLoc(), op.getType(), add.getLhs());
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), base, offset);
    return success();
  }
};
} // namespace

void IntToPtrOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<IntToPtrOfPtrToInt, IntToPtrOfAddConstant>(context);
}
