//===- CopyContiguousRowsAsMemcpy.cpp - tile copies a row at a time -------===//
//
// A `linalg.copy` between 2-D (or higher) buffers whose rows are contiguous but lie apart (a
// tile of a larger tensor into a tile buffer, or back) lowers to nested loops of scalar loads
// and stores. LLVM unrolls the short inner loop fully before vectorizing and then cannot
// vectorize the unrolled body: source and destination might overlap. The operand tile cache
// filled its bf16 tiles that way, one 16-bit move per element (~13% of a 1024^3 bf16 AMX
// matmul). Each row is copied instead with `memref.copy` of the two rows as 1-D views, which
// lowers to `llvm.memcpy` of a known size: LLVM inlines it as vector moves (rows of up to 256
// bytes, which it inlines on every x86 host; longer rows keep their loops).
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_COPYCONTIGUOUSROWSASMEMCPY
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Rows shorter than this many bytes are left to the loops (LLVM vectorizes across them).
constexpr int64_t kMinRowBytes = 16;
/// Nor rows longer than this: LLVM inlines a fixed-size memcpy of up to 8 vector stores (256
/// bytes with AVX2) and calls libc's beyond, whose `rep movsb` reads rows from DRAM ~1.6x
/// slower than vector loops on AMD Zen.
constexpr int64_t kMaxRowBytes = 256;

bool copiesContiguousRows(linalg::CopyOp copy) {
  if (!copy.hasPureBufferSemantics())
    return false;
  auto source = dyn_cast<MemRefType>(copy.getInputs()[0].getType());
  auto target = dyn_cast<MemRefType>(copy.getOutputs()[0].getType());
  if (!source || !target || source.getRank() < 2 || !source.hasStaticShape() ||
      source.getShape() != target.getShape() ||
      source.getElementType() != target.getElementType() ||
      !source.getElementType().isIntOrFloat() || !source.isLastDimUnitStride() ||
      !target.isLastDimUnitStride())
    return false;
  int64_t bits = source.getElementTypeBitWidth();
  int64_t rowBytes = source.getShape().back() * (bits / 8);
  return bits % 8 == 0 && rowBytes >= kMinRowBytes && rowBytes <= kMaxRowBytes;
}

/// The 1-D view of the row of `buffer` at `indices` (all but the last dimension).
Value rowOf(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(indices.begin(), indices.end());
  offsets.push_back(b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(rank - 1, b.getIndexAttr(1));
  sizes.push_back(b.getIndexAttr(type.getShape().back()));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto rowType = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
      {type.getShape().back()}, type, offsets, sizes, strides));
  return memref::SubViewOp::create(b, loc, rowType, buffer, offsets, sizes, strides);
}

void copyByRows(OpBuilder &b, linalg::CopyOp copy) {
  Location loc = copy.getLoc();
  Value source = copy.getInputs()[0], target = copy.getOutputs()[0];
  ArrayRef<int64_t> shape = cast<MemRefType>(source.getType()).getShape();
  SmallVector<Value> lower, upper, steps;
  for (int64_t size : shape.drop_back()) {
    lower.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    upper.push_back(arith::ConstantIndexOp::create(b, loc, size));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  scf::buildLoopNest(b, loc, lower, upper, steps,
                     [&](OpBuilder &b, Location loc, ValueRange indices) {
                       memref::CopyOp::create(b, loc, rowOf(b, loc, source, indices),
                                              rowOf(b, loc, target, indices));
                     });
}

struct CopyContiguousRowsAsMemcpyPass
    : impl::CopyContiguousRowsAsMemcpyBase<CopyContiguousRowsAsMemcpyPass> {
  void runOnOperation() override {
    SmallVector<linalg::CopyOp> copies;
    getOperation()->walk([&](linalg::CopyOp copy) {
      if (copiesContiguousRows(copy))
        copies.push_back(copy);
    });
    OpBuilder b(&getContext());
    for (linalg::CopyOp copy : copies) {
      b.setInsertionPoint(copy);
      copyByRows(b, copy);
      copy->erase();
    }
  }
};

} // namespace
} // namespace tritium::cpu
