//===- WrappedRanges.h - ranges wrapped with `%` that rarely wrap ---------===//
//
// Triton's matmul tutorial (and kernels modelled on it) keeps its loads in bounds by wrapping
// the block's offsets: `(pid * BLOCK + tl.arange(0, BLOCK)) % N`. Only the last block along a
// dimension ever wraps, but the remainder hides that the offsets are consecutive, so a load
// through them becomes a gather. Loads find these remainders and version their loop nest on
// "no block wraps": there the remainder is the range itself.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_WRAPPEDRANGES_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_WRAPPEDRANGES_H

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tritium {

/// `(splat(start) + make_range(0, size)) % splat(bound)` (remsi or remui) found below a
/// tile expression, through elementwise ops, broadcasts, expand_dims and addptr. The bound
/// may be a splat constant (Inductor's templates, with static shapes: `rm % 512`).
struct WrappedRange {
  mlir::Operation *remainder;
  mlir::Value start; // the original scalar
  mlir::OpFoldResult bound; // the original scalar, or the constant's i32 attribute
  int64_t size;
  bool isUnsigned;
};

llvm::SmallVector<WrappedRange> findWrappedRanges(mlir::ValueRange tiles);

/// Whether no range wraps: 0 <= start and start + size <= bound for each (unsigned compares
/// for remui), as an i1 over the converted scalars.
mlir::Value noRangeWraps(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                         llvm::ArrayRef<WrappedRange> ranges);

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_WRAPPEDRANGES_H
