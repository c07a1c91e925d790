//===- TileMatmulsIntoRegisters.cpp - register-blocked matmul micro-kernels ===//
//
// A matmul lowered as plain loops loads and stores a row of C for every multiply-add. Tiling
// it into (mr x nr) blocks of C stepped along K one column at a time, and vectorizing each
// step, gives a vector.contract whose C block is loop-invariant along K: once buffers exist,
// the accumulator transfers are hoisted out of the K loop and the block stays in registers
// (mr * nr / 16 zmm registers for f32), each step an outer product of a column of A and a
// row of B.
//
// With 16 vector registers (AVX2) the best block is 6 rows x 2 vectors: 12 accumulators hide
// the FMA latency (4 cycles on two pipes needs 8 independent sums, and a block of exactly 8
// stalls at the slightest delay) and each row of B loaded serves 6 FMAs instead of 4. Tiles
// have power-of-two rows, so the rows past a multiple of 6 form a matmul of their own with a
// smaller block.
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

using Block = std::pair<int64_t, int64_t>; // (rows of C, columns of C)

/// The element type of a static f32 or f64 matmul with the default indexing, or null.
Type registerBlockElementType(linalg::MatmulOp op) {
  auto a = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto b = dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  auto c = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!a || !b || !c || !a.hasStaticShape() || !b.hasStaticShape() || !c.hasStaticShape())
    return nullptr;
  Type element = c.getElementType();
  if (!(element.isF32() || element.isF64()) || a.getElementType() != element ||
      b.getElementType() != element)
    return nullptr;
  // Only the default (identity) indexing of a plain matmul.
  if (op.hasUserDefinedMaps())
    return nullptr;
  return element;
}

/// The (mr, nr) block of C to keep in registers, or nothing when no block divides the
/// matmul (static shapes, f32 or f64 throughout). `vectorBits` is the host's register width:
/// 512-bit hosts have 32 vector registers, 256-bit (AVX2-only) hosts 16, so their blocks hold
/// half as many vectors and leave room for a row of B and a broadcast of A. On 256-bit hosts
/// this is the block of matmuls that take no 6-row blocks, and of the rows those leave.
std::optional<Block> registerBlockOf(linalg::MatmulOp op, int64_t vectorBits) {
  Type element = registerBlockElementType(op);
  if (!element)
    return std::nullopt;
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t lanes = vectorBits / element.getIntOrFloatBitWidth(); // elements in one register
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  // (rows of C, vectors along a row)
  static constexpr Block wideBlocks[] = {{8, 2}, {4, 2}, {4, 1}, {2, 1}};
  static constexpr Block narrowBlocks[] = {{4, 2}, {2, 2}, {4, 1}, {2, 1}};
  ArrayRef<Block> blocks = vectorBits >= 512 ? ArrayRef<Block>(wideBlocks) : ArrayRef<Block>(narrowBlocks);
  for (auto [mr, nrVectors] : blocks)
    if (m % mr == 0 && n % (nrVectors * lanes) == 0)
      return std::make_pair(mr, nrVectors * lanes);
  return std::nullopt;
}

/// With 16 vector registers (see the top of the file), the rows of C that take 6-row blocks of
/// two vectors, and that block: the largest multiple of 6 that leaves a multiple of 4 rows
/// (4x16 blocks keep 8 accumulators; a 2x16 block keeps 4 and waits on the FMA latency half
/// the time), else of 2. 64 rows are 60 + 4, 32 are 24 + 8, 128 are 120 + 8.
std::optional<std::pair<int64_t, Block>> sixRowBlocksOf(linalg::MatmulOp op,
                                                        int64_t vectorBits) {
  Type element = registerBlockElementType(op);
  if (vectorBits >= 512 || !element)
    return std::nullopt;
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t columns = 2 * vectorBits / element.getIntOrFloatBitWidth(); // two registers
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  if (n % columns != 0)
    return std::nullopt;
  for (int64_t rest : {4, 2})
    for (int64_t rows = m - m % 6; rows >= 12; rows -= 6)
      if ((m - rows) % rest == 0)
        return std::make_pair(rows, Block{6, columns});
  return std::nullopt;
}

/// Tiles `op` into (block.first x block.second) blocks of C stepped along K, each step
/// vectorized.
void tileIntoRegisterBlocks(RewriterBase &rewriter, linalg::MatmulOp op, Block block) {
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  options.setTileSizes({rewriter.getIndexAttr(block.first), rewriter.getIndexAttr(block.second),
                        rewriter.getIndexAttr(1)});
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return;
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

struct TileMatmulsIntoRegistersPass
    : impl::TileMatmulsIntoRegistersBase<TileMatmulsIntoRegistersPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : matmuls) {
      auto sixRows = sixRowBlocksOf(op, vectorBits);
      if (!sixRows) {
        if (std::optional<Block> block = registerBlockOf(op, vectorBits))
          tileIntoRegisterBlocks(rewriter, op, *block);
        continue;
      }
      // The rows past the 6-row blocks, if any, as a matmul of their own in its slice of C (an
      // extract/insert pair of one tensor, which bufferizes in place).
      auto [rows, block] = *sixRows;
      rewriter.setInsertionPoint(op);
      auto [head, tail] = linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()),
                                          /*dimension=*/0, rewriter.getIndexAttr(rows));
      if (!head)
        continue;
      tileIntoRegisterBlocks(rewriter, cast<linalg::MatmulOp>(head.getOperation()), block);
      if (!tail)
        continue;
      auto rest = cast<linalg::MatmulOp>(tail.getOperation());
      if (std::optional<Block> restBlock = registerBlockOf(rest, vectorBits))
        tileIntoRegisterBlocks(rewriter, rest, *restBlock);
    }
  }
};

} // namespace
} // namespace tritium::cpu
