//===- MatmulsToDotProductInstructions.cpp - bf16 and int8 dot products ---===//
//
// AVX512-BF16 and AVX512-VNNI multiply short vectors of pairs (bf16) or quads (int8) and add
// each group's sum into a 32-bit lane: `vdpbf16ps` does 32 bf16 multiply-adds and `vpdpbusd`
// 64 int8 ones per instruction, where an f32 FMA does 16. A matmul uses them when the K
// elements a lane sums sit next to each other in both operands:
//
//   - B is packed once per matmul into [K/g, N] 32-bit words, word (kk, n) holding
//     B[g*kk .. g*kk+g-1, n] (g = 2 for bf16, 4 for int8), so a row of words is one operand;
//   - A is packed likewise along its rows, so word (m, kk) broadcast to every lane is the other;
//   - the C block (mr rows x nr columns) stays in registers across K, one instruction per
//     (row, 16 columns) per K group.
//
// `vpdpbusd` multiplies unsigned by signed bytes: A is biased by 128 (its sign bit flipped,
// which makes it unsigned), and 128 * (the column sums of B) is subtracted from C beforehand.
// Integer arithmetic wraps, so the result is the int32 product bit for bit. `vdpbf16ps`
// treats bf16 subnormals as zero and rounds each addition to nearest-even in f32: within the
// summation bounds of an f32 accumulation.
//
// The host's features decide whether this runs (see the pipeline); matmuls it does not take
// are widened to f32 by tritium-cpu-widen-matmul-operands.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "KGroupWords.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_MATMULSTODOTPRODUCTINSTRUCTIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// 32-bit lanes of one 512-bit register.
constexpr int64_t kLanes = 16;

/// What differs between the bf16 and the int8 instruction.
struct DotProductKind {
  int64_t group;         // K elements per 32-bit word
  StringRef intrinsic;   // the LLVM intrinsic
  bool biasLhs;          // vpdpbusd: A unsigned (biased by 128), B signed
};

const DotProductKind kBF16 = {2, "llvm.x86.avx512bf16.dpbf16ps.512", false};
const DotProductKind kInt8 = {4, "llvm.x86.avx512.vpdpbusd.512", true};

struct MatmulShape {
  int64_t m, n, k, mr, nr;
};

std::optional<MatmulShape> shapeOf(linalg::MatmulOp op, const DotProductKind &kind) {
  auto a = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!a.hasStaticShape() || !c.hasStaticShape())
    return std::nullopt;
  MatmulShape shape{c.getDimSize(0), c.getDimSize(1), a.getDimSize(1), 0, 0};
  if (shape.k % kind.group != 0)
    return std::nullopt;
  // 8 x 32 keeps 16 accumulators, 2 words of B and a broadcast of A in 19 of 32 registers.
  for (auto [mr, nrVectors] : {std::pair<int64_t, int64_t>{8, 2}, {4, 2}, {4, 1}, {2, 1}})
    if (shape.m % mr == 0 && shape.n % (nrVectors * kLanes) == 0) {
      shape.mr = mr;
      shape.nr = nrVectors * kLanes;
      return shape;
    }
  return std::nullopt;
}

const DotProductKind *kindOf(linalg::MatmulOp op, bool bf16, bool int8) {
  if (op.hasUserDefinedMaps() || !op.hasPureTensorSemantics())
    return nullptr;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type b = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type c = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (bf16 && a.isBF16() && b.isBF16() && c.isF32())
    return &kBF16;
  if (int8 && a.isInteger(8) && b.isInteger(8) && c.isInteger(32) &&
      op.getCast() == linalg::TypeFn::cast_signed)
    return &kInt8;
  return nullptr;
}

Value index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// 128 * sum over K of B[k, n] for every column n, as int32: what biasing A by 128 adds.
Value biasCorrection(OpBuilder &b, Location loc, Value rhs) {
  auto type = cast<RankedTensorType>(rhs.getType());
  int64_t cols = type.getDimSize(1);
  Type i32 = b.getI32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value init = linalg::FillOp::create(b, loc, zero,
                                      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{cols}, i32)
                                          .getResult())
                   .getResult(0);
  MLIRContext *ctx = b.getContext();
  AffineMap full = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap column = AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{rhs}, ValueRange{init},
      ArrayRef<AffineMap>{full, column},
      ArrayRef<utils::IteratorType>{utils::IteratorType::reduction, utils::IteratorType::parallel},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value wide = arith::ExtSIOp::create(b, loc, i32, args[0]);
        Value scaled = arith::ShLIOp::create(b, loc, wide,
                                             arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(7)));
        linalg::YieldOp::create(b, loc, arith::AddIOp::create(b, loc, args[1], scaled).getResult());
      });
  return generic.getResult(0);
}

/// The matmul as loops over (mr x nr) blocks of C, each summed over K/g steps in registers.
Value emitDotProductMatmul(OpBuilder &b, linalg::MatmulOp op, const DotProductKind &kind,
                           const MatmulShape &shape) {
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], init = op.getDpsInits()[0];
  Value packedLhs = packAlongK(b, loc, lhs, kind.group, /*alongRows=*/true,
                               kind.biasLhs ? 0x80808080u : 0u);
  Value packedRhs = packAlongK(b, loc, rhs, kind.group, /*alongRows=*/false, 0);
  Value correction = kind.biasLhs ? biasCorrection(b, loc, rhs) : Value();

  Type accElement = getElementTypeOrSelf(init.getType());
  Type i32 = b.getI32Type();
  auto accVector = VectorType::get({kLanes}, accElement);
  auto wordVector = VectorType::get({kLanes}, i32);
  Type operandElement = kind.group == 2 ? Type(b.getBF16Type()) : Type(b.getIntegerType(8));
  auto operandVector = VectorType::get({kLanes * kind.group}, operandElement);
  StringAttr intrinsic = b.getStringAttr(kind.intrinsic);
  int64_t columnVectors = shape.nr / kLanes;
  Value c0 = index(b, loc, 0);
  Value accPad = arith::ConstantOp::create(b, loc, b.getZeroAttr(accElement));
  Value wordPad = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  SmallVector<bool> inBounds = {true};

  auto rowLoop = scf::ForOp::create(
      b, loc, c0, index(b, loc, shape.m), index(b, loc, shape.mr), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value m, ValueRange rowIter) {
        auto colLoop = scf::ForOp::create(
            b, loc, c0, index(b, loc, shape.n), index(b, loc, shape.nr), rowIter,
            [&](OpBuilder &b, Location loc, Value n, ValueRange colIter) {
              Value block = colIter[0];
              auto rowAt = [&](int64_t i) {
                return arith::AddIOp::create(b, loc, m, index(b, loc, i)).getResult();
              };
              auto colAt = [&](int64_t j) {
                return arith::AddIOp::create(b, loc, n, index(b, loc, j * kLanes)).getResult();
              };
              SmallVector<Value> biases;
              for (int64_t j = 0; correction && j < columnVectors; ++j)
                biases.push_back(vector::TransferReadOp::create(
                    b, loc, accVector, correction, ValueRange{colAt(j)}, accPad, inBounds));
              SmallVector<Value> accs;
              for (int64_t i = 0; i < shape.mr; ++i)
                for (int64_t j = 0; j < columnVectors; ++j) {
                  Value acc = vector::TransferReadOp::create(b, loc, accVector, block,
                                                             ValueRange{rowAt(i), colAt(j)},
                                                             accPad, inBounds);
                  if (correction)
                    acc = arith::SubIOp::create(b, loc, acc, biases[j]);
                  accs.push_back(acc);
                }
              auto kLoop = scf::ForOp::create(
                  b, loc, c0, index(b, loc, shape.k / kind.group), index(b, loc, 1), accs,
                  [&](OpBuilder &b, Location loc, Value kk, ValueRange sums) {
                    SmallVector<Value> columns;
                    for (int64_t j = 0; j < columnVectors; ++j) {
                      Value words = vector::TransferReadOp::create(
                          b, loc, wordVector, packedRhs, ValueRange{kk, colAt(j)}, wordPad,
                          inBounds);
                      columns.push_back(vector::BitCastOp::create(b, loc, operandVector, words));
                    }
                    SmallVector<Value> next;
                    for (int64_t i = 0; i < shape.mr; ++i) {
                      Value word =
                          tensor::ExtractOp::create(b, loc, packedLhs, ValueRange{rowAt(i), kk});
                      Value splat = vector::BroadcastOp::create(b, loc, wordVector, word);
                      Value row = vector::BitCastOp::create(b, loc, operandVector, splat);
                      for (int64_t j = 0; j < columnVectors; ++j)
                        next.push_back(LLVM::CallIntrinsicOp::create(
                                           b, loc, accVector, intrinsic,
                                           ValueRange{sums[i * columnVectors + j], row, columns[j]})
                                           .getResult(0));
                    }
                    scf::YieldOp::create(b, loc, next);
                  });
              for (int64_t i = 0; i < shape.mr; ++i)
                for (int64_t j = 0; j < columnVectors; ++j)
                  block = vector::TransferWriteOp::create(b, loc,
                                                          kLoop.getResult(i * columnVectors + j),
                                                          block, ValueRange{rowAt(i), colAt(j)},
                                                          inBounds)
                              .getResult();
              scf::YieldOp::create(b, loc, block);
            });
        scf::YieldOp::create(b, loc, colLoop.getResults());
      });
  return rowLoop.getResult(0);
}

struct MatmulsToDotProductInstructionsPass
    : impl::MatmulsToDotProductInstructionsBase<MatmulsToDotProductInstructionsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!avx512BF16 && !avx512VNNI)
      return;
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : matmuls) {
      if (isAMXMatmul(op, amxBF16, amxInt8))
        continue; // AMX tiles take it after fusion
      const DotProductKind *kind = kindOf(op, avx512BF16, avx512VNNI);
      if (!kind)
        continue;
      std::optional<MatmulShape> shape = shapeOf(op, *kind);
      if (!shape)
        continue;
      rewriter.setInsertionPoint(op);
      rewriter.replaceOp(op, emitDotProductMatmul(rewriter, op, *kind, *shape));
    }
  }
};

} // namespace
} // namespace tritium::cpu
