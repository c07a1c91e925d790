//===- DivideByInvariantsAsMultiplies.cpp - x / d by a magic number -------===//
//
// Inductor's kernels compiled with dynamic=True index with sizes known only at run time:
// `(xindex // ks1) % ks0`, `xindex // ks2` in a max-pool over symbolic shapes. A division by a
// constant becomes a multiply and shifts in LLVM; a division by a value is `idiv`, and x86 has
// no vector integer division, so a vectorized loop divides lane by lane. A 32-bit division whose
// divisor is invariant in every loop around it is rewritten here as the round-up method of
// Granlund and Montgomery ("Division by invariant integers using multiplication", 1994): before
// the outermost loop, for |d| >= 1,
//   l = ceil(log2 |d|),  m = floor(2^32 (2^l - |d|) / |d|) + 1   (a 64-bit division, once)
// and in the loop, for a dividend n taken as unsigned (its magnitude for a signed division),
//   t = (m * n) >> 32,  q = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0)
// which is floor(n / |d|) for every 32-bit n, vectorizable (vpmuludq and shifts). A signed
// quotient takes the sign of n xor d (truncation toward zero, as arith.divsi), a remainder is
// n - q * d. A divisor of zero divides by one (no trap, as tritium-cpu-guard-integer-division
// makes every other division); INT_MIN / -1 wraps to INT_MIN with remainder 0, as there.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_DIVIDEBYINVARIANTSASMULTIPLIES
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The outermost scf.for around `op` in its function, if any.
scf::ForOp outermostLoop(Operation *op) {
  scf::ForOp outermost;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    outermost = loop;
  return outermost;
}

/// What the loop needs to divide by |d|: the multiplier and the two shifts (all i32), and d's
/// sign (an i32 that is all ones when d < 0, for a signed division).
struct Magic {
  Value multiplier, shift1, shift2, divisorSign, divisor;
};

Value i32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}
Value i64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Magic magicFor(OpBuilder &b, Location loc, Value d, bool isSigned) {
  Value zero = i32(b, loc, 0), one = i32(b, loc, 1);
  // A divisor of zero divides by one.
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, zero);
  Value safe = arith::SelectOp::create(b, loc, isZero, one, d);
  Value magnitude = safe, sign = zero;
  if (isSigned) {
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, safe, zero);
    magnitude = arith::SelectOp::create(b, loc, negative,
                                        arith::SubIOp::create(b, loc, zero, safe), safe);
    sign = arith::ShRSIOp::create(b, loc, safe, i32(b, loc, 31));
  }
  // l = 32 - ctlz(|d| - 1): 0 for 1, 1 for 2, 2 for 3 and 4, ...
  Value l = arith::SubIOp::create(
      b, loc, i32(b, loc, 32),
      math::CountLeadingZerosOp::create(b, loc, arith::SubIOp::create(b, loc, magnitude, one)));
  Value l64 = arith::ExtUIOp::create(b, loc, b.getI64Type(), l);
  Value d64 = arith::ExtUIOp::create(b, loc, b.getI64Type(), magnitude);
  Value power = arith::ShLIOp::create(b, loc, i64(b, loc, 1), l64);
  Value numerator = arith::ShLIOp::create(b, loc, arith::SubIOp::create(b, loc, power, d64),
                                          i64(b, loc, 32));
  Value m64 = arith::AddIOp::create(b, loc, arith::DivUIOp::create(b, loc, numerator, d64),
                                    i64(b, loc, 1));
  Value m = arith::TruncIOp::create(b, loc, b.getI32Type(), m64);
  Value shift1 = arith::MinUIOp::create(b, loc, l, one);
  Value shift2 = arith::SubIOp::create(b, loc, l, shift1);
  return {m, shift1, shift2, sign, safe};
}

/// floor(n / |d|) for n taken as unsigned.
Value unsignedQuotient(OpBuilder &b, Location loc, Value n, const Magic &magic) {
  Type i64Type = b.getI64Type();
  Value product =
      arith::MulIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64Type, magic.multiplier),
                            arith::ExtUIOp::create(b, loc, i64Type, n));
  Value t = arith::TruncIOp::create(
      b, loc, b.getI32Type(), arith::ShRUIOp::create(b, loc, product, i64(b, loc, 32)));
  Value half = arith::ShRUIOp::create(b, loc, arith::SubIOp::create(b, loc, n, t), magic.shift1);
  return arith::ShRUIOp::create(b, loc, arith::AddIOp::create(b, loc, t, half), magic.shift2);
}

void rewrite(Operation *op, Magic magic) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value n = op->getOperand(0);
  bool isSigned = isa<arith::DivSIOp, arith::RemSIOp>(op);
  Value quotient;
  if (isSigned) {
    Value zero = i32(b, loc, 0);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, n, zero);
    Value magnitude =
        arith::SelectOp::create(b, loc, negative, arith::SubIOp::create(b, loc, zero, n), n);
    Value unsignedQ = unsignedQuotient(b, loc, magnitude, magic);
    // (q ^ s) - s negates q where s (the sign of n xor d) is all ones.
    Value s = arith::XOrIOp::create(b, loc, arith::ShRSIOp::create(b, loc, n, i32(b, loc, 31)),
                                    magic.divisorSign);
    quotient = arith::SubIOp::create(b, loc, arith::XOrIOp::create(b, loc, unsignedQ, s), s);
  } else {
    quotient = unsignedQuotient(b, loc, n, magic);
  }
  Value result = quotient;
  if (isa<arith::RemSIOp, arith::RemUIOp>(op))
    result = arith::SubIOp::create(b, loc, n, arith::MulIOp::create(b, loc, quotient, magic.divisor));
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

struct DivideByInvariantsAsMultipliesPass
    : impl::DivideByInvariantsAsMultipliesBase<DivideByInvariantsAsMultipliesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, scf::ForOp>> divisions;
    getOperation()->walk([&](Operation *op) {
      if (!isa<arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp>(op) ||
          !op->getResult(0).getType().isInteger(32))
        return;
      Value d = op->getOperand(1);
      if (matchPattern(d, m_Constant()))
        return; // LLVM divides by constants with multiplies already
      scf::ForOp loop = outermostLoop(op);
      if (loop && loop.isDefinedOutsideOfLoop(d))
        divisions.emplace_back(op, loop);
    });
    // One magic number per divisor, signedness and loop nest.
    llvm::DenseMap<std::tuple<Value, int, Operation *>, Magic> magics;
    for (auto [op, loop] : divisions) {
      bool isSigned = isa<arith::DivSIOp, arith::RemSIOp>(op);
      Value d = op->getOperand(1);
      auto key = std::make_tuple(d, int(isSigned), loop.getOperation());
      auto found = magics.find(key);
      if (found == magics.end()) {
        OpBuilder b(loop);
        found = magics.try_emplace(key, magicFor(b, loop.getLoc(), d, isSigned)).first;
      }
      rewrite(op, found->second);
    }
  }
};

} // namespace
} // namespace tritium::cpu
