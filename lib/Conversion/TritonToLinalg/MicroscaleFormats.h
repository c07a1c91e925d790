//===- MicroscaleFormats.h - e2m1 values and e8m0 scales as f32 -----------===//
//
// The OCP microscaling element formats that tt.dot_scaled and ttg.fp4_to_fp read: scalar
// arithmetic that decodes them exactly to f32, usable inside any loop or linalg body.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_MICROSCALEFORMATS_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_MICROSCALEFORMATS_H

#include "mlir/IR/Builders.h"

namespace tritium {

/// The f32 value of the e2m1 (fp4) nibble in the low 4 bits of the i32 `nibble`:
/// sign, 2 exponent bits (bias 1), 1 mantissa bit; magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.
mlir::Value decodeE2M1(mlir::OpBuilder &b, mlir::Location loc, mlir::Value nibble);

/// The f32 value 2^(s - 127) of the e8m0 scale byte `scale` (an i8): 0 is 2^-127, 255 NaN.
mlir::Value decodeE8M0(mlir::OpBuilder &b, mlir::Location loc, mlir::Value scale);

/// The f32 value at `indices` of a tensor of e2m1 pairs packed in i8 along `packedDim`
/// (logical element i is byte i/2: the low nibble when i is even, the high one when odd).
mlir::Value e2m1ElementAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value packed,
                          mlir::ValueRange indices, unsigned packedDim);

/// The f32 value of the low (`high` false) or high nibble of the byte at `byteIndices` of a
/// tensor of e2m1 pairs packed in i8: one parity of the logical elements, read without the
/// division of their index.
mlir::Value e2m1NibbleAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value packed,
                         mlir::ValueRange byteIndices, bool high);

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_MICROSCALEFORMATS_H
