//===- GuardIntegerDivision.cpp - integer division that never traps -------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_GUARDINTEGERDIVISION
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

Value constantLike(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

struct GuardIntegerDivisionPass : impl::GuardIntegerDivisionBase<GuardIntegerDivisionPass> {
  void runOnOperation() override {
    SmallVector<Operation *> divisions;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp, arith::CeilDivSIOp,
              arith::CeilDivUIOp, arith::FloorDivSIOp>(op) &&
          isa<IntegerType>(op->getResult(0).getType()))
        divisions.push_back(op);
    });
    for (Operation *op : divisions) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value x = op->getOperand(0), y = op->getOperand(1);
      auto type = cast<IntegerType>(y.getType());
      unsigned width = type.getWidth();
      Value one = constantLike(b, loc, type, APInt(width, 1));
      Value unsafe = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y,
                                           constantLike(b, loc, type, APInt(width, 0)));
      if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp, arith::FloorDivSIOp>(op)) {
        Value minusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y,
                                               constantLike(b, loc, type, APInt::getAllOnes(width)));
        Value intMin = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x,
                                             constantLike(b, loc, type, APInt::getSignedMinValue(width)));
        unsafe = arith::OrIOp::create(b, loc, unsafe, arith::AndIOp::create(b, loc, minusOne, intMin));
      }
      op->setOperand(1, arith::SelectOp::create(b, loc, unsafe, one, y));
    }
  }
};

} // namespace
} // namespace tritium::cpu
