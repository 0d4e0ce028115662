/**
 * What the CUDA and HIP backends share: the vendor-neutral GPU backend and executable, which reach a vendor only
 * through three small tables (runtime, kernel compiler, GEMM library); exported only to those backends and the
 * benchmarks.
 */
package dev.audioengine.gpu;
