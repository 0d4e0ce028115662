/**
 * The CUDA backend: Foreign Function and Memory bindings to the CUDA driver API, NVRTC and cuBLASLt that fill in the
 * shared GPU executor's tables. Found through {@link dev.audioengine.backend.cuda.CudaBackendProvider}; it needs only
 * the NVIDIA driver at run time.
 */
package dev.audioengine.backend.cuda;
