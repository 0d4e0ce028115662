/**
 * GPU kernels: the kernel sources shared by CUDA and HIP, the compiler table a vendor fills in (ahead-of-time binaries
 * or its runtime compiler), and the on-disk cache of compiled kernels.
 */
package dev.audioengine.gpu.compile;
