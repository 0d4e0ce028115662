/**
 * The ROCm (HIP) backend: Foreign Function and Memory bindings to the HIP runtime, hipRTC, hipBLASLt and rocBLAS that
 * fill in the shared GPU executor's tables. Found through {@link dev.audioengine.backend.hip.HipBackendProvider}.
 */
package dev.audioengine.backend.hip;
