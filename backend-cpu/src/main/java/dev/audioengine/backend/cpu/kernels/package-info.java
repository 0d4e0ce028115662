/**
 * The CPU's kernels: {@link dev.audioengine.backend.cpu.kernels.CpuKernels}, the table that binds each op to its
 * kernel, and what every kernel shares (the kernel interface, {@code CpuTensor}, {@code KernelContext},
 * {@code RunScratch}, {@code Rows}). The kernels themselves live in one subpackage per {@code Op.Family}; code two
 * families share stays with the family it belongs to (the LSTM's GEMM is {@code linear}'s). Nothing here is
 * exported: the backend is reached through {@code CpuBackendProvider} only.
 */
package dev.audioengine.backend.cpu.kernels;
