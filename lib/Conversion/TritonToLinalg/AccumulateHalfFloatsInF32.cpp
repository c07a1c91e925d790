//===- AccumulateHalfFloatsInF32.cpp - 16-bit sums and products in f32 ----===//
//
// `tl.sum` and `tl.cumsum` keep the element type of their input, so a sum of bf16 values
// rounds to bf16 after every addition when it is folded element by element (1024 ones sum to
// 256). A GPU adds in a tree, in f32 registers. Sums and products (single-op `addf`/`mulf`
// combiners) of f16 and bf16 tiles are widened here: the input converted to f32, the
// combiner retyped, the result rounded once back to the element type.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tritium {
#define GEN_PASS_DEF_ACCUMULATEHALFFLOATSINF32
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// Whether `op` (a tt.reduce or tt.scan) sums or multiplies one f16/bf16 operand.
bool accumulatesHalfFloats(Operation *op) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return false;
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  if (!element.isF16() && !element.isBF16())
    return false;
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return false;
  Operation &combine = body.front();
  return isa<arith::AddFOp, arith::MulFOp>(combine) &&
         body.getTerminator()->getNumOperands() == 1 &&
         body.getTerminator()->getOperand(0) == combine.getResult(0);
}

Type withF32(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(f32);
  return f32;
}

void widen(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value input = op->getOperand(0);
  op->setOperand(0, arith::ExtFOp::create(b, loc, withF32(input.getType()), input));
  Block &body = op->getRegion(0).front();
  for (BlockArgument argument : body.getArguments())
    argument.setType(withF32(argument.getType()));
  body.front().getResult(0).setType(withF32(body.front().getResult(0).getType()));
  Value result = op->getResult(0);
  Type narrow = result.getType();
  result.setType(withF32(narrow));
  b.setInsertionPointAfter(op);
  auto rounded = arith::TruncFOp::create(b, loc, narrow, result);
  result.replaceAllUsesExcept(rounded, rounded);
}

struct AccumulateHalfFloatsInF32Pass
    : impl::AccumulateHalfFloatsInF32Base<AccumulateHalfFloatsInF32Pass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<tt::ReduceOp, tt::ScanOp>(op) && accumulatesHalfFloats(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      widen(op);
  }
};

} // namespace
} // namespace tritium
