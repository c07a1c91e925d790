//===- PackMatmulsForAMX.cpp - bf16 and int8 matmuls in AMX's layout ------===//
//
// AMX multiplies tiles: `tdpbf16ps` a 16x32 bf16 tile of A by a tile of B whose 16 rows hold,
// for each of 16 columns, a pair of K neighbours (64 bytes a row), into a 16x16 f32 tile of C;
// `tdpbssd` likewise with quads of int8 into int32. A's rows are read as they lie; B must be
// regrouped so the g = 2 or 4 values a lane sums share one 32-bit word:
//
//   B [K, N]           -> [K/g, g, N] (a view) -> transpose -> [K/g, N, g]
//   B = x^T, x [N, K]  -> words of x's rows [N, K/g] -> transpose (32-bit, register blocks)
//
// (the same bytes either way). The matmul becomes a generic over (m, n, kk, j) computing
// C[m, n] += A[m, kk, j] * Bp[kk, n, j] (or the j-th value of the word Bw[kk, n]), which is
// the matmul itself (run as loops it gives the same
// result), marked for tritium-cpu-matmuls-to-amx-tiles, which takes it after bufferization,
// when A, packed B and C are buffers tile loads can read. It runs after elementwise fusion:
// fused into the generic, an operand's conversion (`p.to(tl.bfloat16)` in attention) would
// make it a generic like any other, run as scalar loops.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "AMXTileGeneric.h"
#include "KGroupWords.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_PACKMATMULSFORAMX
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

Value packForAMX(OpBuilder &b, linalg::MatmulOp op) {
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], init = op.getDpsInits()[0];
  auto a = cast<RankedTensorType>(lhs.getType());
  Type element = a.getElementType();
  int64_t m = a.getDimSize(0), k = a.getDimSize(1);
  int64_t g = amxKGroupOf(element);

  Value groupedA = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({m, k / g, g}, element), lhs,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  Value packedB;
  auto transposed = rhs.getDefiningOp<linalg::TransposeOp>();
  if (Value packed = packedTileOf(rhs, g)) {
    packedB = packed;
  } else if (transposed && transposed->hasOneUse() &&
      transposed.getPermutation() == ArrayRef<int64_t>{1, 0}) {
    // B = x^T (attention's tl.trans(k), `x @ w.t()`): words of x's rows [N, K/g], then a
    // transpose of 32-bit words (by register blocks) instead of two of 16- or 8-bit values.
    Value words = packAlongK(b, loc, transposed.getInput(), g, /*alongRows=*/true, 0);
    auto wordsType = cast<RankedTensorType>(words.getType());
    Value init = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{wordsType.getDimSize(1), wordsType.getDimSize(0)},
        b.getI32Type());
    packedB = linalg::TransposeOp::create(b, loc, words, init, ArrayRef<int64_t>{1, 0})
                  .getResult()[0];
  } else {
    // [K, N] -> [K/g, g, N] (a view) -> [K/g, N, g]: a transpose LLVM does with vpermt2w,
    // faster than building words (1024^3 bf16 at 128x64x64: ~480 against ~330 GFLOP/s).
    auto bType = cast<RankedTensorType>(rhs.getType());
    int64_t n = bType.getDimSize(1);
    Value groupedB = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({k / g, g, n}, element), rhs,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{k / g, n, g}, element);
    packedB = linalg::TransposeOp::create(b, loc, groupedB, init, ArrayRef<int64_t>{0, 2, 1})
                  .getResult()[0];
  }
  return buildAMXTileGeneric(b, loc, AMXTileProduct{groupedA, packedB}, init);
}

struct PackMatmulsForAMXPass : impl::PackMatmulsForAMXBase<PackMatmulsForAMXPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!bf16 && !int8)
      return;
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) {
      if (isAMXMatmul(op, bf16, int8))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : matmuls) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOp(op, packForAMX(rewriter, op));
    }
  }
};

} // namespace
} // namespace tritium::cpu
