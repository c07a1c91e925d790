//===- PopulatePatterns.h - TTIR to linalg pattern families -----*- C++ -*-===//
//
// One family of conversion patterns per file in lib/Conversion/TritonToLinalg.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_CONVERSION_TRITONTOLINALG_POPULATEPATTERNS_H
#define TRITIUM_CONVERSION_TRITONTOLINALG_POPULATEPATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

namespace tritium {

/// Number of trailing i32 arguments of every converted function: program id x, y, z, then
/// grid size x, y, z.
constexpr unsigned kNumProgramInfoArgs = 6;

/// `!tt.ptr<T>` becomes `!llvm.ptr`; a tensor of pointers becomes a tensor of i64 addresses.
class TritonToLinalgTypeConverter : public mlir::TypeConverter {
public:
  TritonToLinalgTypeConverter(mlir::MLIRContext *context);
};

/// tt.func, tt.call, tt.return, tt.get_program_id, tt.get_num_programs.
void populateFunctionPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.make_range, tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans, tt.unsplat.
void populateShapePatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.addptr, tt.int_to_ptr, tt.ptr_to_int, tt.bitcast, and arith ops on pointers.
void populatePointerPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.load, tt.store, ttg.async_copy_global_to_local.
void populateMemoryPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.dot.
void populateDotPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.reduce, tt.scan.
void populateReductionPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.atomic_rmw, tt.atomic_cas.
void populateAtomicPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.cat, tt.join, tt.split, tt.gather, tt.histogram, tt.map_elementwise.
void populateDataMovementPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.print, tt.assert: calls into the device runtime (see DeviceRuntimeFunctions.h).
void populateDebugPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.extern_elementwise: math ops for the functions MLIR knows, calls otherwise.
void populateExternElementwisePatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// ttg ops (TTGIR): layouts erased, shared memory as buffers, async copies synchronous.
void populateTritonGPUPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// Why a ttg op has no lowering on a CPU (empty if it has one), for diagnostics.
std::string reasonWithoutCPUMeaning(mlir::Operation *op);
/// arith, math and ub ops whose types change (pointer tensors, encoded tensors).
void populateRetypeStructuralOpsPatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);
/// tt.fp_to_fp, tt.clampf, tt.precise_sqrt, tt.precise_divf, tt.mulhiui.
void populateElementwisePatterns(mlir::TypeConverter &, mlir::RewritePatternSet &);

} // namespace tritium

#endif // TRITIUM_CONVERSION_TRITONTOLINALG_POPULATEPATTERNS_H
