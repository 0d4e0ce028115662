/**
 * Compiled execution: the compiler assigns each op of a graph to a backend (with an explicit CPU fallback policy),
 * plans memory, and produces a {@link dev.audioengine.api.exec.CompiledGraph} that runs repeatedly; persistent tensors
 * keep state across runs and a run summary reports what ran where.
 */
package dev.audioengine.api.exec;
