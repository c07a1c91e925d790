//===- MinMaxReductionTrees.cpp - float min/max reductions as trees -------===//
//
// The loop vectorizer ends a row max (`tl.max`, softmax's first pass) with one
// `llvm.vector.reduce.fmax` of its vector accumulator. Without the `nnan` flag, which Triton's
// semantics never allow, LLVM leaves that call to instruction selection, which folds the lanes
// one after another: for 16 lanes a chain of 15 scalar max + NaN-check + blend steps, about 100
// cycles per row on a kernel whose whole row of 1024 floats streams in about 150. The reduction
// is unordered by definition (maxnum and maximum are associative and commutative), so halving
// the vector log2(n) times with the vector form of the same operation gives the same value.
//
//===----------------------------------------------------------------------===//

#include "MinMaxReductionTrees.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

namespace tritium::cpu {

/// The elementwise operation whose reduction `id` is, or not_intrinsic.
static llvm::Intrinsic::ID elementwiseOperation(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::vector_reduce_fmax:
    return llvm::Intrinsic::maxnum;
  case llvm::Intrinsic::vector_reduce_fmin:
    return llvm::Intrinsic::minnum;
  case llvm::Intrinsic::vector_reduce_fmaximum:
    return llvm::Intrinsic::maximum;
  case llvm::Intrinsic::vector_reduce_fminimum:
    return llvm::Intrinsic::minimum;
  default:
    return llvm::Intrinsic::not_intrinsic;
  }
}

static llvm::Value *reduceAsTree(llvm::IntrinsicInst &reduction, llvm::Intrinsic::ID operation) {
  llvm::IRBuilder<> builder(&reduction);
  builder.setFastMathFlags(reduction.getFastMathFlags());
  llvm::Value *vector = reduction.getArgOperand(0);
  auto *type = llvm::cast<llvm::FixedVectorType>(vector->getType());
  for (unsigned lanes = type->getNumElements(); lanes > 1; lanes /= 2) {
    // The upper half against the lower half, in a vector of the same width (the lanes beyond
    // the half are don't-care), so every step stays in one register class.
    llvm::SmallVector<int> upperHalf(type->getNumElements(), -1);
    for (unsigned lane = 0; lane < lanes / 2; ++lane)
      upperHalf[lane] = int(lanes / 2 + lane);
    llvm::Value *upper = builder.CreateShuffleVector(vector, upperHalf);
    vector = builder.CreateBinaryIntrinsic(operation, vector, upper);
  }
  return builder.CreateExtractElement(vector, uint64_t(0));
}

bool expandMinMaxReductionsAsTrees(llvm::Module &module) {
  llvm::SmallVector<std::pair<llvm::IntrinsicInst *, llvm::Intrinsic::ID>> reductions;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block)
        if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
          llvm::Intrinsic::ID operation = elementwiseOperation(call->getIntrinsicID());
          if (operation == llvm::Intrinsic::not_intrinsic)
            continue;
          auto *type = llvm::dyn_cast<llvm::FixedVectorType>(call->getArgOperand(0)->getType());
          if (type && llvm::isPowerOf2_32(type->getNumElements()))
            reductions.push_back({call, operation});
        }
  llvm::SmallPtrSet<llvm::Function *, 4> declarations;
  for (auto [reduction, operation] : reductions) {
    declarations.insert(reduction->getCalledFunction());
    reduction->replaceAllUsesWith(reduceAsTree(*reduction, operation));
    reduction->eraseFromParent();
  }
  // Declarations nothing calls any more would only puzzle a reader of the `llir` stage.
  for (llvm::Function *declaration : declarations)
    if (declaration->use_empty())
      declaration->eraseFromParent();
  return !reductions.empty();
}

} // namespace tritium::cpu
