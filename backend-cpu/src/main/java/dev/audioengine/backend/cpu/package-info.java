/**
 * The CPU backend: every op of the graph API in pure Java with the Vector API and a worker pool; it is the reference
 * for the GPU backends and the fallback for ops they lack. Found through {@link
 * dev.audioengine.backend.cpu.CpuBackendProvider}; applications never name it.
 */
package dev.audioengine.backend.cpu;
