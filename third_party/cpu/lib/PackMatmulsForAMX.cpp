//===- PackMatmulsForAMX.cpp - bf16 and int8 matmuls in AMX's layout ------===//
//
// AMX multiplies tiles: `tdpbf16ps` a 16x32 bf16 tile of A by a tile of B whose 16 rows hold,
// for each of 16 columns, a pair of K neighbours (64 bytes a row), into a 16x16 f32 tile of C;
// `tdpbssd` likewise with quads of int8 into int32. A's rows are read as they lie; B must be
// regrouped so the g = 2 or 4 values a lane sums sit next to each other:
//
//   B [K, N] -> [K/g, g, N] (a view) -> transpose -> [K/g, N, g]   (once per matmul)
//
// The matmul becomes a generic over (m, n, kk, j) computing C[m, n] += A[m, kk, j] *
// Bp[kk, n, j], which is the matmul itself (run as loops it gives the same result), marked
// for tritium-cpu-matmuls-to-amx-tiles, which takes it after bufferization, when A, packed B
// and C are buffers tile loads can read. It runs after elementwise fusion: fused into the
// generic, an operand's conversion (`p.to(tl.bfloat16)` in attention) would make it a generic
// like any other, run as scalar loops.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
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

/// K elements a 32-bit lane of a tile sums: 2 bf16 or 4 int8.
int64_t groupOf(Type element) { return element.isBF16() ? 2 : 4; }

Value packForAMX(OpBuilder &b, linalg::MatmulOp op) {
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], init = op.getDpsInits()[0];
  auto a = cast<RankedTensorType>(lhs.getType());
  auto bType = cast<RankedTensorType>(rhs.getType());
  Type element = a.getElementType();
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = bType.getDimSize(1);
  int64_t g = groupOf(element);

  Value groupedA = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({m, k / g, g}, element), lhs,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  Value groupedB = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({k / g, g, n}, element), rhs,
      SmallVector<ReassociationIndices>{{0, 1}, {2}});
  Value packedInit = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{k / g, n, g}, element);
  Value packedB =
      linalg::TransposeOp::create(b, loc, groupedB, packedInit, ArrayRef<int64_t>{0, 2, 1})
          .getResult()[0];

  MLIRContext *ctx = b.getContext();
  AffineExpr dm, dn, dk, dj;
  bindDims(ctx, dm, dn, dk, dj);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {dm, dk, dj}, ctx),
                                 AffineMap::get(4, 0, {dk, dn, dj}, ctx),
                                 AffineMap::get(4, 0, {dm, dn}, ctx)};
  SmallVector<utils::IteratorType> iterators = {
      utils::IteratorType::parallel, utils::IteratorType::parallel,
      utils::IteratorType::reduction, utils::IteratorType::reduction};
  Type acc = getElementTypeOrSelf(init.getType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{groupedA, packedB}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        Value x, y, product, sum;
        if (isa<FloatType>(acc)) {
          x = arith::ExtFOp::create(b, loc, acc, args[0]);
          y = arith::ExtFOp::create(b, loc, acc, args[1]);
          product = arith::MulFOp::create(b, loc, x, y);
          sum = arith::AddFOp::create(b, loc, args[2], product);
        } else {
          x = arith::ExtSIOp::create(b, loc, acc, args[0]);
          y = arith::ExtSIOp::create(b, loc, acc, args[1]);
          product = arith::MulIOp::create(b, loc, x, y);
          sum = arith::AddIOp::create(b, loc, args[2], product);
        }
        linalg::YieldOp::create(b, loc, sum);
      });
  generic->setAttr(kAMXTilesAttrName, UnitAttr::get(ctx));
  return generic.getResult(0);
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
