//===- MinMaxReductionTrees.h - float min/max reductions as trees -*- C++ -*-===//

#ifndef TRITIUM_TARGET_CPU_LIB_CODEGEN_MINMAXREDUCTIONTREES_H
#define TRITIUM_TARGET_CPU_LIB_CODEGEN_MINMAXREDUCTIONTREES_H

namespace llvm {
class Module;
} // namespace llvm

namespace tritium::cpu {

/// Rewrites each `llvm.vector.reduce.{fmax,fmin,fmaximum,fminimum}` of the module into a tree of
/// halving shuffles and vector `llvm.{maxnum,minnum,maximum,minimum}` calls. Returns whether
/// anything changed.
bool expandMinMaxReductionsAsTrees(llvm::Module &module);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_CODEGEN_MINMAXREDUCTIONTREES_H
