/**
 * The GEMM library table a vendor backend fills in (cuBLASLt, hipBLASLt or rocBLAS), and the choice between the vendor
 * library and the engine's own GEMM kernels.
 */
package dev.audioengine.gpu.gemm;
