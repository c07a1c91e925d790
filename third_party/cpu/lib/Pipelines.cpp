//===- Pipelines.cpp - the CPU target's linalg-to-LLVM pipeline -----------===//

#include "tritium/Target/CPU/Passes.h"
#include "tritium/Target/CPU/AMXPermission.h"
#include "tritium/Target/CPU/Codegen.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

namespace tritium::cpu {

void buildLinalgToLLVMPipeline(OpPassManager &pm, const LinalgToLLVMOptions &options) {
  // Early returns leave functions with several blocks; bufferization needs one return.
  pm.addPass(createLiftControlFlowToSCFPass());
  pm.addPass(createAddKernelEntry());
  llvm::StringMap<bool> host = hostCPUFeatures();
  bool amx = host.lookup("amx-tile") && requestAMXTileData();
  bool amxBF16 = amx && host.lookup("amx-bf16"), amxInt8 = amx && host.lookup("amx-int8");
  // fp8 products on AMX hosts: operands widened to bf16 (exactly), for the tiles; before the
  // tile reads, which decode such operand tiles once a launch.
  Float8MatmulsAsBFloat16Options float8OnTiles;
  float8OnTiles.amxBF16 = amxBF16;
  pm.addNestedPass<func::FuncOp>(createFloat8MatmulsAsBFloat16(float8OnTiles));
  // Operand tiles of matmuls and transposes that are unmasked strided blocks are read where
  // they lie, not copied (a matmul's B only when its rows are close together; B of an AMX
  // matmul from a copy packed once a launch).
  ReadTilesInPlaceOptions readInPlace;
  readInPlace.amxBF16 = amxBF16;
  readInPlace.amxInt8 = amxInt8;
  readInPlace.dotProductBF16 = host.lookup("avx512bf16");
  readInPlace.dotProductInt8 = host.lookup("avx512vnni");
  pm.addPass(createReadTilesInPlace(readInPlace));
  // Masked tile loops: the iterations inside the mask's bound without the test.
  pm.addNestedPass<func::FuncOp>(createSplitLoopsAtMaskBounds());
  // Indices divided by a period (group scales, Inductor's `x // C`, `x % C`): strips in which
  // the quotient is uniform and the remainder consecutive.
  pm.addNestedPass<func::FuncOp>(createStripMineLoopsAtDivisionPeriods());
  // Before any canonicalization, which would fold fp8 conversions of constants differently.
  pm.addPass(createExpandFloat8Conversions());
  // bf16 and int8 matmuls on the host's dot-product instructions where it has them; the rest
  // of the 16- and 8-bit matmuls become f32 matmuls before their operand conversions are fused.
  // Those AMX tiles take (on hosts that have them and may use them) are left for after fusion.
  MatmulsToDotProductInstructionsOptions dotProducts;
  dotProducts.avx512BF16 = host.lookup("avx512bf16");
  dotProducts.avx512VNNI = host.lookup("avx512vnni");
  dotProducts.amxBF16 = amxBF16;
  dotProducts.amxInt8 = amxInt8;
  pm.addNestedPass<func::FuncOp>(createMatmulsToDotProductInstructions(dotProducts));
  WidenMatmulOperandsOptions widen;
  widen.amxBF16 = amxBF16;
  widen.amxInt8 = amxInt8;
  pm.addNestedPass<func::FuncOp>(createWidenMatmulOperands(widen));
  // Tensor compute: elementwise ops join their consumers before anything is materialized.
  pm.addNestedPass<func::FuncOp>(createFoldPairXorSumsIntoReversals());
  pm.addNestedPass<func::FuncOp>(createFoldOneHotPairSumsIntoSlices());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // AMX tiles for the bf16 and int8 matmuls left for them: after fusion, which would fuse an
  // operand's conversion (`p.to(tl.bfloat16)`) into the tile generic and leave it to loops.
  PackMatmulsForAMXOptions amxTiles;
  amxTiles.bf16 = amxBF16;
  amxTiles.int8 = amxInt8;
  pm.addNestedPass<func::FuncOp>(createPackMatmulsForAMX(amxTiles));
  // Longer K runs for each C tile: the kernel's K loop unrolled, its products in one generic.
  if (amxBF16 || amxInt8)
    pm.addNestedPass<func::FuncOp>(createMergeAMXMatmulsAcrossKIterations());
  // Sorts' hypercube tiles: loops of 2^k iterations instead of nests of two-iteration loops.
  // Loop-carried tiles are marked for in-place update first: a collapsed op reads its
  // accumulator through a collapse_shape, which the later run would not recognise.
  pm.addNestedPass<func::FuncOp>(createUpdateLoopCarriedTilesInPlace());
  pm.addNestedPass<func::FuncOp>(createCollapseHypercubeLoopNests());
  pm.addPass(createCanonicalizerPass());
  TileMatmulsIntoRegistersOptions registerBlocks;
  registerBlocks.vectorBits = hostVectorBits();
  pm.addNestedPass<func::FuncOp>(createTileMatmulsIntoRegisters(registerBlocks));
  pm.addNestedPass<func::FuncOp>(createInterchangeMatmulLoops());

  pm.addNestedPass<func::FuncOp>(createUpdateLoopCarriedTilesInPlace());
  // Welford's `m2` reads the old `mean` after `mean`'s update: read first, updated in place.
  pm.addNestedPass<func::FuncOp>(createMoveReadersBeforeInPlaceUpdates());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  // Tiles a branch allocates (a first iteration run apart, each side of a mask split) move out
  // of it, where they can live on the stack; then out of loops, those no iteration yields.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferHoistingPass());
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  pm.addNestedPass<func::FuncOp>(createPromoteTileBuffersToStack());
  bufferization::buildBufferDeallocationPipeline(pm);
  if (amx)
    pm.addNestedPass<func::FuncOp>(createMatmulsToAMXTiles());

  // The C block of a register-tiled matmul leaves memory for the length of its K loop.
  pm.addNestedPass<func::FuncOp>(createLoopInvariantCodeMotionPass());
  pm.addNestedPass<func::FuncOp>(createHoistAccumulatorTransfers());
  pm.addNestedPass<func::FuncOp>(
      createConvertVectorToSCFPass(VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createCopiesToLinalg());
  // 2-D transposes of 32/64-bit tiles (tl.trans) by 256-bit blocks shuffled in registers.
  pm.addNestedPass<func::FuncOp>(createTransposeTilesByRegisterBlocks());
  // Tile copies with contiguous rows: a memcpy per row, inlined as vector moves.
  pm.addNestedPass<func::FuncOp>(createCopyContiguousRowsAsMemcpy());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Row maxima and minima: vmaxps alone per vector, the NaN rule only for rows that have one.
  pm.addNestedPass<func::FuncOp>(createExtremumReductionsWithoutNaNChecks());
  // Row sums of 2-D tiles: vectorized along the row, not gathered across rows.
  pm.addNestedPass<func::FuncOp>(createKeepReductionLoopsRolled());
  // A row's reductions in one loop, each value read once, and tiles handed from loop to loop
  // within the iteration (after the two passes above, which rewrite loops that do one
  // reduction each).
  pm.addNestedPass<func::FuncOp>(createFuseIndependentSiblingLoops());
  pm.addPass(createStoreBoolAndBFloat16AsIntegers());
  // Before the generic polynomials: f32 log/sin/cos (and exp, if asked) give the
  // interpreter's bits.
  ExpandMathLikeNumPyOptions numpyMath;
  numpyMath.includeExp = options.numpyExp;
  pm.addPass(createExpandMathLikeNumPy(numpyMath));
  // AVX-512's vscalefps applies exp's power of two in one instruction; elsewhere LLVM would
  // call ldexpf per element, so the scaling is built from integer bits instead.
  ExpandMathToPolynomialsOptions polynomials;
  polynomials.ldexpScaling = host.lookup("avx512f");
  pm.addPass(createExpandMathToPolynomials(polynomials));
  pm.addNestedPass<func::FuncOp>(createDivideByInvariantsAsMultiplies());
  pm.addPass(createGuardIntegerDivision());
  // bf16 arithmetic left to LLVM goes through f32 and back with an instruction that flushes
  // subnormals; computing in f32 explicitly leaves the rounding to the expansion below.
  pm.addPass(createExpandBFloat16Conversions()); // negations first: on the bits
  arith::ArithEmulateUnsupportedFloatsOptions bf16InF32;
  bf16InF32.sourceTypeStrs = {"bf16"};
  bf16InF32.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(bf16InF32));
  pm.addPass(createExpandBFloat16Conversions());
  pm.addPass(createCanonicalizerPass());
  // Strided views expand into affine.apply, which lower-affine must then see.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  vectorOptions.amx = amx;
  pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void registerCPUPipelines() {
  PassPipelineRegistration<LinalgToLLVMOptions>("tritium-cpu-linalg-to-llvm",
                             "The linalg form to the LLVM dialect, with kernel entry points",
                             buildLinalgToLLVMPipeline);
}

} // namespace tritium::cpu
