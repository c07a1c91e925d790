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
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
/// half as many vectors (at most 8) and leave room for a row of B and a broadcast of A.
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

/// The rows of C that take 6-row blocks of two vectors, with 16 vector registers (see the top
/// of the file): the largest multiple of 6 that leaves a multiple of 4 rows (4x16 blocks keep
/// 8 accumulators; a 2x16 block keeps 4 and waits on the FMA latency half the time), else of
/// 2; or 0. 64 rows are 60 + 4, 32 are 24 + 8, 128 are 120 + 8.
int64_t rowsInSixRowBlocks(linalg::MatmulOp op, int64_t vectorBits) {
  Type element = registerBlockElementType(op);
  if (vectorBits >= 512 || !element)
    return 0;
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t lanes = vectorBits / element.getIntOrFloatBitWidth();
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  if (n % (2 * lanes) != 0)
    return 0;
  for (int64_t rest : {4, 2})
    for (int64_t rows = m - m % 6; rows >= 12; rows -= 6)
      if ((m - rows) % rest == 0)
        return rows;
  return 0;
}

/// `op` as two matmuls: rows [0, rows) of C, then the rest, each in its slice of C (a pair
/// of extract and insert slices of one tensor, which bufferizes in place).
std::pair<linalg::MatmulOp, linalg::MatmulOp> splitRows(RewriterBase &rewriter,
                                                         linalg::MatmulOp op, int64_t rows) {
  Location loc = op.getLoc();
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1], c = op.getDpsInits()[0];
  auto aType = cast<RankedTensorType>(a.getType());
  auto cType = cast<RankedTensorType>(c.getType());
  int64_t k = aType.getDimSize(1), n = cType.getDimSize(1);
  auto part = [&](Value into, int64_t first, int64_t count) {
    SmallVector<OpFoldResult> aOffsets = {rewriter.getIndexAttr(first), rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> aSizes = {rewriter.getIndexAttr(count), rewriter.getIndexAttr(k)};
    SmallVector<OpFoldResult> cSizes = {rewriter.getIndexAttr(count), rewriter.getIndexAttr(n)};
    SmallVector<OpFoldResult> ones(2, rewriter.getIndexAttr(1));
    Value aRows = tensor::ExtractSliceOp::create(rewriter, loc, a, aOffsets, aSizes, ones);
    Value cRows = tensor::ExtractSliceOp::create(rewriter, loc, into, aOffsets, cSizes, ones);
    auto product = linalg::MatmulOp::create(rewriter, loc, cRows.getType(), ValueRange{aRows, b},
                                            ValueRange{cRows});
    Value result = tensor::InsertSliceOp::create(rewriter, loc, product.getResult(0), into,
                                                 aOffsets, cSizes, ones);
    return std::make_pair(product, result);
  };
  rewriter.setInsertionPoint(op);
  auto [head, withHead] = part(c, 0, rows);
  auto [tail, withTail] = part(withHead, rows, cType.getDimSize(0) - rows);
  rewriter.replaceOp(op, withTail);
  return {head, tail};
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
      if (int64_t rows = rowsInSixRowBlocks(op, vectorBits)) {
        Type element = registerBlockElementType(op);
        int64_t columns = 2 * vectorBits / element.getIntOrFloatBitWidth();
        linalg::MatmulOp head = op, tail;
        if (rows != cast<RankedTensorType>(op.getDpsInits()[0].getType()).getDimSize(0))
          std::tie(head, tail) = splitRows(rewriter, op, rows);
        tileIntoRegisterBlocks(rewriter, head, {6, columns});
        if (tail)
          if (std::optional<Block> block = registerBlockOf(tail, vectorBits))
            tileIntoRegisterBlocks(rewriter, tail, *block);
        continue;
      }
      if (std::optional<Block> block = registerBlockOf(op, vectorBits))
        tileIntoRegisterBlocks(rewriter, op, *block);
    }
  }
};

} // namespace
} // namespace tritium::cpu
