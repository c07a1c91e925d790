//===- TileMatmulsIntoRegisters.cpp - register-blocked matmul micro-kernels ===//
//
// A matmul lowered as plain loops loads and stores a row of C for every multiply-add. Tiling
// it into (mr x nr) blocks of C stepped along K one column at a time, and vectorizing each
// step, gives a vector.contract whose C block is loop-invariant along K: once buffers exist,
// the accumulator transfers are hoisted out of the K loop and the block stays in registers
// (mr * nr / 16 zmm registers for f32), each step an outer product of a column of A and a
// row of B.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_TILEMATMULSINTOREGISTERS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The (mr, nr) block of C to keep in registers, or nothing when no block divides the
/// matmul (static shapes, f32 or f64 throughout). `vectorBits` is the host's register width:
/// 512-bit hosts have 32 vector registers, 256-bit (AVX2-only) hosts 16, so their blocks hold
/// half as many vectors (at most 8) and leave room for a row of B and a broadcast of A.
std::optional<std::pair<int64_t, int64_t>> registerBlockOf(linalg::MatmulOp op,
                                                           int64_t vectorBits) {
  auto a = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto b = dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  auto c = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!a || !b || !c || !a.hasStaticShape() || !b.hasStaticShape() || !c.hasStaticShape())
    return std::nullopt;
  Type element = c.getElementType();
  if (!(element.isF32() || element.isF64()) || a.getElementType() != element ||
      b.getElementType() != element)
    return std::nullopt;
  // Only the default (identity) indexing of a plain matmul.
  if (op.hasUserDefinedMaps())
    return std::nullopt;
  int64_t lanes = vectorBits / element.getIntOrFloatBitWidth(); // elements in one register
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  using Block = std::pair<int64_t, int64_t>; // (rows of C, vectors along a row)
  static constexpr Block wideBlocks[] = {{8, 2}, {4, 2}, {4, 1}, {2, 1}};
  static constexpr Block narrowBlocks[] = {{4, 2}, {2, 2}, {4, 1}, {2, 1}};
  ArrayRef<Block> blocks = vectorBits >= 512 ? ArrayRef<Block>(wideBlocks) : ArrayRef<Block>(narrowBlocks);
  for (auto [mr, nrVectors] : blocks)
    if (m % mr == 0 && n % (nrVectors * lanes) == 0)
      return std::make_pair(mr, nrVectors * lanes);
  return std::nullopt;
}

struct TileMatmulsIntoRegistersPass
    : impl::TileMatmulsIntoRegistersBase<TileMatmulsIntoRegistersPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : matmuls) {
      std::optional<std::pair<int64_t, int64_t>> block = registerBlockOf(op, vectorBits);
      if (!block)
        continue;
      rewriter.setInsertionPoint(op);
      scf::SCFTilingOptions options;
      options.setTileSizes({rewriter.getIndexAttr(block->first),
                            rewriter.getIndexAttr(block->second), rewriter.getIndexAttr(1)});
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      for (Operation *tile : tiled->tiledOps) {
        rewriter.setInsertionPoint(tile);
        FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
            rewriter, tile, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
            /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
            /*assumeDynamicDimsMatchVecSizes=*/false, /*createNamedContraction=*/true);
        if (succeeded(vectorized))
          rewriter.replaceOp(tile, vectorized->replacements);
      }
    }
  }
};

} // namespace
} // namespace tritium::cpu
