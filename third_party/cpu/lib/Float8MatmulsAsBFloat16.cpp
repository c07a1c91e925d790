//===- Float8MatmulsAsBFloat16.cpp - fp8 products on AMX's bf16 tiles -----===//
//
// A `tl.dot` of fp8 operands arrives as a matmul of operands widened (exactly) to f32, which
// takes the f32 register blocks. Every fp8 value is a bf16 value too, never a bf16 subnormal
// (which tdpbf16ps would read as zero), and tdpbf16ps sums exact products in f32, so on a
// host with AMX-BF16 the operands are widened to bf16 instead and the product runs on the
// tiles; tritium-cpu-read-tiles-in-place, after this pass, decodes each whole operand tile once
// a launch per thread (ReadFloat8TilesDecoded.cpp).
// On hosts without AMX the f32 matmul stays: a bf16 product on `vdpbf16ps` ran at about two
// thirds of the f32 register blocks' speed (103-106 GFLOP/s against 150-173 at one thread on
// the AMX host with AMX turned off, docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_FLOAT8MATMULSASBFLOAT16
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The fp8 tensor `operand` was widened from, if it is an `arith.extf` of one.
Value widenedFloat8(Value operand) {
  auto widened = operand.getDefiningOp<arith::ExtFOp>();
  if (!widened)
    return {};
  auto element = dyn_cast<FloatType>(getElementTypeOrSelf(widened.getIn().getType()));
  return element && element.getWidth() == 8 ? widened.getIn() : Value();
}

/// `op` over its operands' fp8 tensors widened to bf16, when both are fp8 widened to f32 and
/// the bf16 product is one AMX tiles compute.
LogicalResult computeAsBFloat16(IRRewriter &rewriter, linalg::MatmulOp op) {
  if (op.hasUserDefinedMaps() || !op.hasPureTensorSemantics() ||
      !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32())
    return failure();
  SmallVector<Value, 2> narrow;
  for (Value operand : op.getDpsInputs())
    if (Value float8 = widenedFloat8(operand))
      narrow.push_back(float8);
  if (narrow.size() != 2)
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value, 2> bf16;
  for (Value float8 : narrow)
    bf16.push_back(arith::ExtFOp::create(
        rewriter, loc, cast<RankedTensorType>(float8.getType()).clone(rewriter.getBF16Type()),
        float8));
  auto product = linalg::MatmulOp::create(rewriter, loc, bf16, op.getDpsInits());
  if (!isAMXMatmul(product, /*bf16=*/true, /*int8=*/false)) {
    rewriter.eraseOp(product);
    for (Value value : bf16)
      rewriter.eraseOp(value.getDefiningOp());
    return failure();
  }
  // The f32 widenings go where nothing else reads them (one op when both operands are one
  // tensor, `tl.dot(a, a)`).
  SmallVector<Operation *, 2> widenings;
  for (Value operand : op.getDpsInputs())
    if (!llvm::is_contained(widenings, operand.getDefiningOp()))
      widenings.push_back(operand.getDefiningOp());
  rewriter.replaceOp(op, product->getResults());
  for (Operation *widening : widenings)
    if (widening->use_empty())
      rewriter.eraseOp(widening);
  return success();
}

struct Float8MatmulsAsBFloat16Pass
    : impl::Float8MatmulsAsBFloat16Base<Float8MatmulsAsBFloat16Pass> {
  using Base::Base;
  void runOnOperation() override {
    if (!amxBF16)
      return;
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : matmuls)
      (void)computeAsBFloat16(rewriter, op);
  }
};

} // namespace
} // namespace tritium::cpu
