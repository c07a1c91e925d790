//===- KGroupWords.h - K neighbours packed into 32-bit words ----*- C++ -*-===//
//
// The dot-product instructions (vdpbf16ps, vpdpbusd) and AMX's tile instructions sum, in
// each 32-bit lane, the products of g = 2 bf16 or 4 int8 K neighbours: their operands hold
// those neighbours in one word, the first in the lowest bits.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_KGROUPWORDS_H
#define TRITIUM_TARGET_CPU_LIB_KGROUPWORDS_H

#include "mlir/IR/Builders.h"

namespace tritium::cpu {

/// Packs `operand` ([rows, K] when `alongRows`, else [K, cols]) into 32-bit words holding
/// `group` neighbours along K, the first in the lowest bits: [rows, K/g] or [K/g, cols]; each
/// word xor `xorMask`.
mlir::Value packAlongK(mlir::OpBuilder &b, mlir::Location loc, mlir::Value operand,
                       int64_t group, bool alongRows, uint32_t xorMask);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_KGROUPWORDS_H
